/**
 * The backend quota: a write that would grow the store past the quota is refused with
 * NoSpace, and the NOSPACE alarm is raised (through the log, once) so every later
 * space-consuming write is refused until an operator disarms it.
 */
import type { ServiceContext } from './context.js';

const NOSPACE = 1;
const ACTIVATE = 1;

export async function quotaExceeded(ctx: ServiceContext, requestBytes: number): Promise<boolean> {
  if (ctx.alarms.has(NOSPACE)) return true;
  if (ctx.dbSize() + requestBytes <= ctx.quotaBytes) return false;
  await ctx.member.propose({ $case: 'alarm', value: { action: ACTIVATE, memberID: ctx.member.memberId, alarm: NOSPACE } });
  return true;
}
