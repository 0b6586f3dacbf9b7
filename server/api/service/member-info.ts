/** Version and health facts the HTTP endpoints report for this member (health: health-check.ts). */
import { toStatus } from '../grpc/error-table.js';
import type { MemberInfo } from '../services.js';
import type { ServiceContext } from './context.js';
import { checkHealth } from './health-check.js';

export function createMemberInfo(ctx: ServiceContext, clusterVersion: () => string): MemberInfo {
  return {
    serverVersion: ctx.serverVersion,
    clusterVersion,
    health: () =>
      checkHealth({
        alarms: () => ctx.alarms.list().map((a) => a.alarm),
        leaderId: () => ctx.member.leaderId,
        quorumRead: (timeoutMs) => ctx.member.readBarrier(timeoutMs),
        messageOf: (e) => toStatus(e).message,
      }),
  };
}
