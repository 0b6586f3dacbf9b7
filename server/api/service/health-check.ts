/**
 * How `/health` decides (etcd 3.4's `checkHealth`, ETCD-FACTS §5.2), in order:
 * 1. an active alarm → unhealthy (`ALARM NOSPACE` / `ALARM CORRUPT`);
 * 2. no leader known → unhealthy (`RAFT NO LEADER`);
 * 3. a quorum read: one linearizable read barrier (a read-index round confirmed by a quorum,
 *    then applied here) that must complete within HEALTH_READ_TIMEOUT_MS, as etcd's 1 s quorum
 *    GET / keys-only Range; a failure → unhealthy (`RANGE ERROR:<message>`).
 * So a member whose peers are gone answers unhealthy as soon as the read cannot complete,
 * without waiting for the election timeout to clear its leader. A healthy answer costs one
 * read-index round, shared with every other read asked in the same loop turn.
 * Reasons are 3.5's; the 3.3/3.4 bodies do not show them.
 */
import type { HealthAnswer } from '../../clusterversion/health-gate.js';
import type { DomainError, Result } from '../../errors/domain-error.js';

/** etcd's health check gives its quorum read one second. */
export const HEALTH_READ_TIMEOUT_MS = 1000;

const NOSPACE = 1;
const CORRUPT = 2;

export interface HealthPorts {
  /** Types of the active alarms (AlarmType numbers), any member. */
  readonly alarms: () => readonly number[];
  /** The leader this member knows, 0n when none. */
  readonly leaderId: () => bigint;
  /** A linearizable read point within `timeoutMs` (Member.readBarrier). */
  readonly quorumRead: (timeoutMs: number) => Promise<Result<void>>;
  /** The client-facing message of a domain error (the gRPC edge's table). */
  readonly messageOf: (e: DomainError) => string;
}

export async function checkHealth(p: HealthPorts): Promise<HealthAnswer> {
  const alarms = p.alarms();
  if (alarms.length > 0) return { healthy: false, reason: 'ALARM ' + alarmName(alarms) };
  if (p.leaderId() === 0n) return { healthy: false, reason: 'RAFT NO LEADER' };
  const read = await p.quorumRead(HEALTH_READ_TIMEOUT_MS);
  if (!read.ok) return { healthy: false, reason: 'RANGE ERROR:' + p.messageOf(read.error) };
  return { healthy: true, reason: '' };
}

function alarmName(alarms: readonly number[]): string {
  if (alarms.includes(NOSPACE)) return 'NOSPACE';
  if (alarms.includes(CORRUPT)) return 'CORRUPT';
  return 'UNKNOWN';
}
