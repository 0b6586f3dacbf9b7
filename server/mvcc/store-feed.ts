/**
 * What a store tells a follower of its contents — a read replica on another thread
 * (read-replica.ts, frontend/) — as it happens, in the order it happens:
 *
 * - `changed`: a write transaction ended at main revision `main` with these events (the index
 *   and the unflushed map already hold them);
 * - `released`: every change with main ≤ `main` is in the backend now (a flush's write
 *   resolved), so it need not be held in memory any more;
 * - `compacted`: the index was compacted at `revision` (the backend's records follow later);
 * - `reloaded`: the store was rebuilt from its backend (a snapshot from the leader): whatever
 *   the follower held is stale, and it needs a new image (`replicaImage`).
 *
 * Called synchronously from inside the store's operations: a feed must only record, never
 * call back into the store.
 */
import type { Event } from '../../proto/gen/etcd/kv.js';

export interface StoreFeed {
  changed(main: bigint, events: readonly Event[]): void;
  released(main: bigint): void;
  compacted(revision: bigint): void;
  reloaded(): void;
}
