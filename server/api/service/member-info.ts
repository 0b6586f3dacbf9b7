/** Version and health facts the HTTP endpoints report for this member. */
import type { MemberInfo } from '../services.js';
import type { ServiceContext } from './context.js';

export function createMemberInfo(ctx: ServiceContext, clusterVersion: () => string): MemberInfo {
  return {
    serverVersion: ctx.serverVersion,
    clusterVersion,
    async health() {
      if (ctx.alarms.list().length > 0) return { healthy: false, reason: 'ALARM ' + (ctx.alarms.has(1) ? 'NOSPACE' : 'CORRUPT') };
      if (ctx.member.leaderId === 0n) return { healthy: false, reason: 'RAFT NO LEADER' };
      return { healthy: true, reason: '' };
    },
  };
}
