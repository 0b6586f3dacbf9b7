/**
 * Publishing this member's attributes (name, client URLs) through the log after it starts,
 * retried until it is applied here; then the member is listed as started by every member, and
 * `onPublished` runs (once, after the `published local member to cluster through raft` record):
 * the member may then serve clients (serve-gate.ts). Not called when stopped first.
 */
import type { Logger } from 'pino';
import { formatId } from '../config/index.js';
import type { Member } from '../member/member.js';

const PUBLISH_TIMEOUT_S = 7;

export function publishAttributes(
  member: Member,
  name: string,
  clientUrls: readonly string[],
  log: Logger,
  onPublished: () => void,
): { stop(): void } {
  let stopped = false;
  const attributes = { name, clientURLs: [...clientUrls] };
  const attempt = async (): Promise<void> => {
    while (!stopped) {
      const res = await member.propose({ $case: 'memberAttributes', value: { id: member.memberId, name, clientUrls: [...clientUrls] } });
      if (res.ok) {
        log.info(
          {
            'local-member-attributes': attributes,
            'request-path': `/0/members/${formatId(member.memberId)}/attributes`,
            'cluster-id': formatId(member.clusterId),
            'publish-timeout': `${PUBLISH_TIMEOUT_S}s`,
          },
          'published local member to cluster through raft',
        );
        if (!stopped) onPublished();
        return;
      }
      if (stopped || res.error.kind === 'Stopped') return;
      log.warn({ error: res.error.kind, 'publish-timeout': `${PUBLISH_TIMEOUT_S}s` }, 'failed to publish local member to cluster through raft');
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  void attempt();
  return { stop: () => void (stopped = true) };
}
