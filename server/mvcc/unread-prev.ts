/**
 * The previous record of a put, known from the key index and read only when someone needs
 * its value.
 *
 * A put needs the key's create revision, version and lease, which the index holds; the
 * previous record's value is needed only for a `prev_kv` reply (the applier reads it then),
 * for `ignore_value`, and for the events' `prevKv` seen by watchers created with `prev_kv`.
 * So when the record is not in memory (unflushed map, hot-record cache), the put's event
 * carries an *unread* prevKv: the record's fields from the index, an empty value, and its
 * revision under a private symbol. `readPrevSync` (live delivery to `prev_kv` watchers) and
 * `readPrevAsync` (history catch-up from the unflushed map) replace it with the record read
 * by revision; a record gone meanwhile (compacted) leaves prevKv out, as etcd does when it
 * reads the previous value at send time.
 *
 * Pure of I/O except through the store state; never mutates the events it is given.
 */
import type { Event, KeyValue } from '../../proto/gen/etcd/kv.js';
import type { KeyIndex } from './key-index.js';
import { backendRecordSync, liveMeta, readRecord, recordInMemory } from './read.js';
import type { Revision } from './revision.js';
import type { StoreState } from './state.js';
import { keyName } from './tree-index.js';

const REVISION = Symbol('unread previous record');

interface UnreadAt {
  readonly main: number;
  readonly sub: number;
}

type UnreadKeyValue = KeyValue & { [REVISION]?: UnreadAt };

/** `ki`'s live record as an unread prevKv (fields from the index, value not read). */
export function unreadPrev(ki: KeyIndex): KeyValue {
  const kv: UnreadKeyValue = liveMeta(ki);
  const pos = ki.size - 1;
  kv[REVISION] = { main: ki.mainAt(pos), sub: ki.subAt(pos) };
  return kv;
}

function unreadAt(kv: KeyValue | undefined): UnreadAt | undefined {
  return (kv as UnreadKeyValue | undefined)?.[REVISION];
}

/** The revision of an unread prevKv; undefined for a record that was read. */
export function unreadRevision(kv: KeyValue | undefined): Revision | undefined {
  const at = unreadAt(kv);
  return at === undefined ? undefined : { main: BigInt(at.main), sub: at.sub };
}

function hasUnread(events: readonly Event[]): boolean {
  for (const ev of events) if (unreadAt(ev.prevKv) !== undefined) return true;
  return false;
}

function withPrev(ev: Event, prevKv: KeyValue | undefined): Event {
  return { type: ev.type, kv: ev.kv, prevKv };
}

/** `events` with every unread prevKv read synchronously; the same array when none is unread. */
export function readPrevSync(state: StoreState, events: readonly Event[]): readonly Event[] {
  if (!hasUnread(events)) return events;
  return events.map((ev) => {
    const at = unreadAt(ev.prevKv);
    if (at === undefined) return ev;
    return withPrev(ev, recordInMemory(state, keyName(ev.prevKv!.key), at.main, at.sub) ?? backendRecordSync(state, at.main, at.sub));
  });
}

/** `events` with every unread prevKv read (backend reads side by side); the same array when none is unread. */
export async function readPrevAsync(state: StoreState, events: Event[]): Promise<Event[]> {
  if (!hasUnread(events)) return events;
  return Promise.all(
    events.map(async (ev) => {
      const rev = unreadRevision(ev.prevKv);
      return rev === undefined ? ev : withPrev(ev, await readRecord(state, rev));
    }),
  );
}
