/**
 * The first log entries of a new cluster: one AddNode conf change per initial member, in
 * member-id order, term 1, indexes 1..N, each carrying the member (name, peer URLs) as its
 * context. Every founding member derives the same entries from the same --initial-cluster.
 */
import { ConfChangeContext } from '../../proto/gen/kvstore/internal.js';
import { EntryType, type Entry } from '../raft/log-types.js';
import type { InitialMember } from '../config/index.js';
import { ConfChangeType, encodeConfChange } from '../raft/index.js';

export function bootstrapEntries(members: readonly InitialMember[]): Entry[] {
  const sorted = [...members].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sorted.map((m, i) => {
    const context = Buffer.from(
      ConfChangeContext.encode({
        header: undefined,
        member: { ID: m.id, name: m.name, peerURLs: [...m.peerUrls], clientURLs: [], isLearner: false },
      }).finish(),
    );
    return {
      term: 1,
      index: i + 1,
      type: EntryType.ENTRY_CONF_CHANGE,
      data: encodeConfChange({ type: ConfChangeType.AddNode, nodeId: m.id, context }),
    };
  });
}
