/**
 * On stop, a leader hands leadership to the voting peer that has been connected the longest
 * (it is the most likely to be up to date), so clients see a new leader at once instead of
 * waiting for an election timeout. Logged as the reference server logs it.
 */
import type { Logger } from 'pino';
import { formatId } from '../config/index.js';
import type { Member } from '../member/member.js';
import type { Membership } from '../membership/membership.js';
import type { PeerTransport } from '../peer/index.js';

export async function handOffLeadership(member: Member, membership: Membership, transport: PeerTransport, log: Logger): Promise<void> {
  if (!member.isLeader) {
    log.info('skipped leadership transfer; local server is not leader');
    return;
  }
  const candidates = membership
    .voters()
    .filter((m) => m.id !== member.memberId)
    .map((m) => ({ id: m.id, since: transport.activeSince(m.id) }))
    .filter((c): c is { id: bigint; since: number } => c.since !== undefined)
    .sort((a, b) => a.since - b.since);
  if (membership.voters().length <= 1) {
    log.info('skipped leadership transfer for single voting member cluster');
    return;
  }
  const target = candidates[0];
  if (!target) {
    log.warn({ error: 'etcdserver: unhealthy cluster' }, 'leadership transfer failed');
    return;
  }
  const started = Date.now();
  log.info({ 'current-leader-member-id': formatId(member.memberId), 'transferee-member-id': formatId(target.id) }, 'leadership transfer starting');
  const res = await member.transferLeadership(target.id);
  const fields = { 'old-leader-member-id': formatId(member.memberId), 'new-leader-member-id': formatId(target.id), took: `${Date.now() - started}ms` };
  if (res.ok) log.info(fields, 'leadership transfer finished');
  else log.warn({ ...fields, error: res.error.kind }, 'leadership transfer failed');
}
