/**
 * History from the key index: for a few keys, their revisions in the window are listed from
 * their generations (a tombstone is the last revision of a closed generation, the previous
 * value is the revision before it in the generation) and only those records are read, from
 * the unflushed map or the backend. Suits a single key or a narrow range over a long window.
 */
import { Event_EventType, type Event, type KeyValue } from '../../proto/gen/etcd/kv.js';
import { fail, ok, type Result } from '../errors/domain-error.js';
import type { KeyIndex } from './key-index.js';
import { deletionKeyValue } from './kv-codec.js';
import { readRecord, vanished } from './read.js';
import { keyBytes } from './tree-index.js';
import { compareRevisions, revisionId, type Revision } from './revision.js';
import type { StoreState } from './state.js';

interface Item {
  readonly ki: KeyIndex;
  readonly rev: Revision;
  readonly tombstone: boolean;
  readonly prev: Revision | undefined;
}

/** History over [from, last] (last ≤ current, from ≥ compact revision) of the keys `kis`. */
export async function historyByIndex(state: StoreState, from: bigint, last: bigint, kis: readonly KeyIndex[]): Promise<Result<Event[]>> {
  const items: Item[] = [];
  for (const ki of kis) {
    ki.forEachBetween(from, last, (rev, tombstone, prev) => {
      items.push({ ki, rev, tombstone, prev });
    });
  }
  if (items.length === 0) return ok([]);
  if (kis.length > 1) items.sort((x, y) => compareRevisions(x.rev, y.rev));

  // Each record is read once, also when it is both an event and the next one's prevKv.
  const reads = new Map<bigint, Promise<KeyValue | undefined>>();
  const read = (rev: Revision): Promise<KeyValue | undefined> => {
    const id = revisionId(rev.main, rev.sub);
    let p = reads.get(id);
    if (p === undefined) {
      p = readRecord(state, rev);
      reads.set(id, p);
    }
    return p;
  };
  const pending = items.map(async (it): Promise<Event | undefined> => {
    const prevKv = it.prev === undefined ? undefined : await read(it.prev);
    if (it.prev !== undefined && prevKv === undefined) return undefined;
    if (it.tombstone) return { type: Event_EventType.DELETE, kv: deletionKeyValue(keyBytes(it.ki), it.rev.main), prevKv };
    const kv = await read(it.rev);
    return kv === undefined ? undefined : { type: Event_EventType.PUT, kv, prevKv };
  });
  const events: Event[] = [];
  for (const e of await Promise.all(pending)) {
    if (e === undefined) return vanished(state, from);
    events.push(e);
  }
  if (from < state.compactRevision) return fail({ kind: 'Compacted', compactRevision: state.compactRevision });
  return ok(events);
}
