/**
 * Catching up a member that is behind the leader's compacted log, by a state image, as
 * server/bootstrap/snapshot-exchange.ts does it over the peer transport:
 *
 * Leader: when its core emits MsgSnap, the member flushes, pins a view of its backend,
 * re-points the message at the consistent index that view holds, and sends the image
 * (the real image encoding, server/snapshot/stream.ts) with it; the outcome goes back to
 * the core through reportSnapshot. Follower: the image is kept durably in the machine's
 * snap dir (`images`, index → image) before the leader hears it arrived; the member is
 * handed the message and an installer that replaces the backend's contents with the image
 * in one synced batch (as server/snapshot/image.ts loadImage does), rebuilds every view of
 * the backend (MVCC index, leases, alarms, members, cluster version, v2 key space) as
 * the real member does (reloadAppliedState), and drops the kept image.
 */
import { readMeta } from '../../../server/mvcc/meta.js';
import type { Message } from '../../../server/raft/index.js';
import { loadImageBytes } from '../../../server/snapshot/image.js';
import { reloadAppliedState } from '../../../server/bootstrap/reload-state.js';
import { imagePieces } from '../../../server/snapshot/stream.js';
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
    await inc.member.flush();
    const view = await inc.backend.snapshot();
    try {
      const { consistentIndex } = await readMeta(view);
      const repointed = inc.member.snapshotAt(m, Number(consistentIndex));
      if (repointed) {
        const image = await collect(imagePieces(view));
        trace(`m${m.from} sends snapshot at ${consistentIndex} (${image.length} bytes) to m${m.to}`);
        ok = await transport.sendSnapshot(repointed, image);
      }
    } finally {
      await view.close();
    }
  } catch (e) {
    trace(`m${m.from} failed to send a snapshot to m${m.to}: ${describeError(e)}`);
  }
  if (inc.life.alive) inc.member.reportSnapshot(m.to, ok);
}


/** Follower side: `m` and its image arrived at incarnation `inc`, whose machine keeps images in `images`. */
export function receiveSnapshot(inc: Incarnation, images: Map<number, Buffer>, m: Message, image: Buffer, trace: (line: string) => void): void {
  const index = m.snapshot!.metadata.index;
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
}
