/**
 * The dialer's log line for a failed stream dial, by cause (etcd's wording where etcd has
 * one). The caller logs only when the failure differs from the previous one, so a peer that
 * stays down or keeps refusing us is reported once, not once per retry.
 */
import type { Logger } from 'pino';
import type { DialOutcome } from './dial.js';

export function logDialFailure(log: Logger, peerHex: string, outcome: Exclude<DialOutcome, { kind: 'Upgraded' }>, reason: string): void {
  const fields = { 'remote-peer-id': peerHex, error: reason };
  if (outcome.kind !== 'Rejected' && reason.startsWith('remote error: tls: ')) {
    // The peer refused our TLS handshake (our certificate): a configuration problem, shown.
    log.warn(fields, 'failed to dial remote peer');
  } else if (outcome.kind !== 'Rejected') {
    log.debug(fields, 'failed to dial remote peer');
  } else if (outcome.status === 410) {
    log.error(fields, 'the member has been permanently removed from the cluster');
  } else if (outcome.status === 412 && outcome.body === 'cluster ID mismatch') {
    log.error(fields, 'request sent was ignored by remote peer due to cluster ID mismatch');
  } else if (outcome.status === 412) {
    log.error(fields, 'request sent was ignored by remote peer due to server version incompatibility');
  } else if (outcome.status === 404) {
    log.warn(fields, 'remote peer failed to find local member in cluster');
  } else {
    log.warn(fields, 'request sent was rejected by remote peer');
  }
}
