/**
 * The backend quota: a write that would grow the store past the quota is refused with
 * NoSpace, and the NOSPACE alarm is raised (through the log, once) so every later
 * space-consuming write is refused until an operator disarms it.
 */
import type { ServiceContext } from './context.js';

const NOSPACE = 1;
const ACTIVATE = 1;

/** Whether a write of `requestBytes` fits: no NOSPACE alarm and the store stays within the quota. */
export function withinQuota(ctx: ServiceContext, requestBytes: number): boolean {
  return !ctx.alarms.has(NOSPACE) && ctx.dbSize() + requestBytes <= ctx.quotaBytes;
}

/** For a write that does not fit: raises the NOSPACE alarm unless it is already raised. */
export async function raiseNoSpace(ctx: ServiceContext): Promise<void> {
  if (ctx.alarms.has(NOSPACE)) return;
  await ctx.member.propose({ $case: 'alarm', value: { action: ACTIVATE, memberID: ctx.member.memberId, alarm: NOSPACE } });
}

export async function quotaExceeded(ctx: ServiceContext, requestBytes: number): Promise<boolean> {
  if (withinQuota(ctx, requestBytes)) return false;
  await raiseNoSpace(ctx);
  return true;
}
