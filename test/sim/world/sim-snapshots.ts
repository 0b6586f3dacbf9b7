/**
 * Catching up a member that is behind the leader's compacted log, by a state image, as
 * server/bootstrap/snapshot-exchange.ts does it over the peer transport:
 *
 * Leader: when its core emits MsgSnap, the member flushes, pins a view of its MVCC store with
 * the record ledger, re-points the message at the consistent index that view holds, and sends
 * the image with it: the real state image (server/snapshot/state-image/send.ts — the bbolt
 * file built while it is read, then its SHA-256), gathered into one Buffer and hashed on this
 * thread (a worker's answer would arrive at a time the virtual scheduler does not control).
 * The outcome goes back to the core through reportSnapshot. Follower: the image's SHA-256 is
 * checked (a failing one is refused, as the real receiver refuses it), then it is kept durably
 * in the machine's snap dir (`images`, index → image) before the leader hears it arrived; the
 * member is handed the message and an installer that loads the image into the backend with
 * the real restartable loader (state-image/load.ts, reading the bytes with the bbolt reader),
 * rebuilds every view of the backend (MVCC index, leases, alarms, members, cluster version, v2
 * key space) as the real member does (reloadAppliedState), and drops the kept image.
 */
import type { Message } from '../../../server/raft/index.js';
import { loadImageBytes } from '../../../server/snapshot/state-image/load.js';
import { startStateImage, stateImagePieces } from '../../../server/snapshot/state-image/send.js';
import { checkTrailer } from '../../../server/snapshot/state-image/sha256-trailer.js';
import { reloadAppliedState } from '../../../server/bootstrap/reload-state.js';
import type { Incarnation } from './sim-node.js';
import { describeError } from './describe-error.js';

export interface SnapshotTransport {
  /** Delivers `m` with `image` to `m.to`; resolves whether it arrived (false: lost, cut, receiver down). */
  sendSnapshot(m: Message, image: Buffer): Promise<boolean>;
}

async function collect(pieces: AsyncIterable<Buffer>): Promise<Buffer> {
  const all: Buffer[] = [];
  for await (const p of pieces) all.push(p);
  return Buffer.concat(all);
}

/** Leader side: sends the image for snapshot message `m` from incarnation `inc`. */
export async function sendSnapshot(inc: Incarnation, m: Message, transport: SnapshotTransport, trace: (line: string) => void): Promise<void> {
  let ok = false;
  try {
    const { image, consistentIndex } = await startStateImage({ store: inc.store, backend: inc.backend, flush: () => inc.member.flush() });
    try {
      const repointed = inc.member.snapshotAt(m, Number(consistentIndex));
      if (repointed) {
        const bytes = await collect(stateImagePieces(image));
        trace(`m${m.from} sends snapshot at ${consistentIndex} (${bytes.length} bytes) to m${m.to}`);
        ok = await transport.sendSnapshot(repointed, bytes);
      }
    } finally {
      await image.close();
    }
  } catch (e) {
    trace(`m${m.from} failed to send a snapshot to m${m.to}: ${describeError(e)}`);
  }
  if (inc.life.alive) inc.member.reportSnapshot(m.to, ok);
}


/**
 * Follower side: `m` and its image arrived at incarnation `inc`, whose machine keeps images in
 * `images`. False (not taken) when the image fails its SHA-256 check.
 */
export function receiveSnapshot(inc: Incarnation, images: Map<number, Buffer>, m: Message, image: Buffer, trace: (line: string) => void): boolean {
  const index = m.snapshot!.metadata.index;
  const checked = checkTrailer(image);
  if (!checked.ok) {
    trace(`m${m.to} refused the snapshot at ${index} from m${m.from}: ${checked.message}`);
    return false;
  }
  images.set(index, image);
  trace(`m${m.to} received snapshot at ${index} from m${m.from}`);
  inc.member.receiveSnapshot(m, async () => {
    const kept = images.get(index);
    if (kept === undefined) throw new Error(`the state image for index ${index} is missing`);
    await loadImageBytes(inc.backend, kept);
    await reloadAppliedState(inc);
    if (!inc.life.alive) return;
    images.delete(index);
    trace(`m${m.to} installed snapshot at ${index}`);
  });
  return true;
}
