/**
 * Catching up a follower that is behind the leader's log by a state image instead of
 * entries.
 *
 * Leader: when the consensus core emits a snapshot message, the member flushes, pins a
 * consistent view of its backend, re-points the message at the exact index the view holds
 * (so no entry is applied twice on the follower), and streams the image with it.
 * Follower: the image is written to `<snap-dir>/<index>.snap.kv` and fsynced before the
 * leader is told it arrived; when the core hands the snapshot out, the backend's contents
 * are replaced by the image and every in-memory view of it (MVCC index, leases, alarms,
 * members) is rebuilt.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { formatId } from '../config/index.js';
import { ok, fail, type Result } from '../errors/domain-error.js';
import type { Member } from '../member/member.js';
import { decodeMessage, encodeMessage } from '../member/message-codec.js';
import { readMeta } from '../mvcc/meta.js';
import type { PeerTransport } from '../peer/index.js';
import type { Message } from '../raft/index.js';
import { imagePieces } from '../snapshot/stream.js';
import { loadImage, receiveImage } from '../snapshot/image.js';
import { reloadAppliedState, type AppliedState } from './reload-state.js';

/** The applied state it reloads after an install, and what it needs to send and receive. */
export interface SnapshotExchangeDeps extends AppliedState {
  readonly member: () => Member;
  readonly transport: () => PeerTransport;
  readonly snapDir: string;
  readonly logger: Logger;
}

export interface SnapshotExchange {
  /** Leader side: sends the state image for snapshot message `m`; reports the outcome to the core. */
  send(m: Message): Promise<void>;
  /** Follower side: the transport's onSnapshot handler. */
  receive(from: bigint, meta: Buffer, body: AsyncIterable<Buffer>): Promise<Result<void>>;
}

/** Where a received state image for `index` is kept until its install completes. */
export function imagePath(snapDir: string, index: number): string {
  return join(snapDir, `${index.toString(16).padStart(16, '0')}.snap.kv`);
}

export function snapshotExchange(d: SnapshotExchangeDeps): SnapshotExchange {
  const log = d.logger;



  return {
    async send(m) {
      const member = d.member();
      let ok = false;
      try {
        await member.flush();
        const view = await d.backend.snapshot();
        try {
          const { consistentIndex } = await readMeta(view);
          const repointed = member.snapshotAt(m, Number(consistentIndex));
          if (repointed) {
            log.info({ 'remote-peer-id': formatId(m.to), 'snapshot-index': consistentIndex.toString() }, 'sending database snapshot');
            const res = await d.transport().sendSnapshot(m.to, encodeMessage(repointed), imagePieces(view));
            ok = res.ok;
            if (!res.ok) log.warn({ 'remote-peer-id': formatId(m.to), error: res }, 'failed to send database snapshot');
          }
        } finally {
          await view.close();
        }
      } catch (err) {
        log.warn({ err, 'remote-peer-id': formatId(m.to) }, 'failed to send database snapshot');
      }
      member.reportSnapshot(m.to, ok);
    },

    async receive(from, meta, body) {
      const m = decodeMessage(meta);
      if (!m.ok) return m;
      if (!m.value.snapshot) return fail({ kind: 'Internal', message: 'snapshot message without snapshot' });
      const index = m.value.snapshot.metadata.index;
      const path = imagePath(d.snapDir, index);
      const bytes = await receiveImage(body, path);
      log.info({ 'remote-peer-id': formatId(from), 'snapshot-index': index.toString(), bytes }, 'received database snapshot');
      d.member().receiveSnapshot(m.value, async () => {
        await loadImage(d.backend, path);
        await reloadAppliedState(d);
        await rm(path, { force: true });
        log.info({ 'snapshot-index': index.toString() }, 'applied database snapshot');
      });
      return ok(undefined);
    },
  };
}
