/**
 * The core's side of a front end's read replica (replica-host.ts): follows the store
 * (mvcc/store-feed.ts) and writes what changes, in order, on the same channel as the replies —
 * so a change always reaches the front end before any reply written after it. That is what
 * keeps a serializable read answered by the front end at least as new as every reply the
 * client has already had through this member (read your own writes, as from the core).
 *
 * - When the front end asks for a replica (`want`: serializable Ranges are being asked for,
 *   replica-demand.ts), and after the store is rebuilt from a snapshot while it has one: the
 *   image (the index and the changes the backend does not hold yet).
 * - Then each change, release and compaction as the store makes it, until the front end drops
 *   the replica (`idle`).
 * - The context (cluster and member ids, Raft term, auth on or off) whenever it differs from
 *   the one last sent: checked before every post of the channel, and every 100 ms when
 *   nothing is posted (a new term with no traffic).
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import type { ReplicaImage } from '../mvcc/read-replica.js';
import type { StoreFeed } from '../mvcc/store-feed.js';
import { FromCore } from './records.js';
import { encodeChange, encodeContext, encodeRevision, sameContext, type ReplicaContext } from './replica-records.js';
import type { TurnChannel } from './turn-channel.js';

/** The store, as the feed sees it. */
export interface ReplicaSource {
  setFeed(feed: StoreFeed | undefined): void;
  replicaImage(): ReplicaImage;
}

const CONTEXT_CHECK_MS = 100;

export interface ReplicaFeed {
  /** The front end asks for a replica: send an image (again, if it had one) and feed it. */
  want(): void;
  /** The front end dropped its replica: stop feeding it. */
  idle(): void;
  stop(): void;
}

export function startReplicaFeed(channel: TurnChannel, store: ReplicaSource, context: () => ReplicaContext): ReplicaFeed {
  let sent: ReplicaContext | undefined;
  const checkContext = (): void => {
    const now = context();
    if (sameContext(sent, now)) return;
    sent = now;
    channel.record(FromCore.ReplicaContext, 0, 0, 0, encodeContext(now));
  };
  const sendImage = (): void => {
    const image = store.replicaImage();
    channel.record(FromCore.ReplicaImage, 0, 0, 0, image.index);
    for (const [main, group] of image.pending) channel.record(FromCore.ReplicaHold, 0, 0, 0, encodeChange(main, group));
  };
  const feed: StoreFeed = {
    changed: (main: bigint, events: readonly Event[]) => channel.record(FromCore.ReplicaChange, 0, 0, 0, encodeChange(main, events)),
    released: (main) => channel.record(FromCore.ReplicaRelease, 0, 0, 0, encodeRevision(main)),
    compacted: (revision) => channel.record(FromCore.ReplicaCompact, 0, 0, 0, encodeRevision(revision)),
    reloaded: sendImage,
  };
  checkContext();
  channel.beforePost = checkContext;
  const timer = setInterval(checkContext, CONTEXT_CHECK_MS);
  timer.unref();
  return {
    want() {
      sendImage();
      store.setFeed(feed);
    },
    idle() {
      store.setFeed(undefined);
    },
    stop() {
      clearInterval(timer);
      channel.beforePost = undefined;
      store.setFeed(undefined);
    },
  };
}
