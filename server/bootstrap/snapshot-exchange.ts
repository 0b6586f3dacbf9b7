/**
 * Catching up a follower that is behind the leader's log by a state image instead of
 * entries (the image: server/snapshot/FORMAT.md, a bbolt file and its SHA-256).
 *
 * Leader: when the consensus core emits a snapshot message, the member flushes, pins a view
 * of the MVCC store with its record ledger (`pinSnapshot`), re-points the message at the
 * exact index the view holds (so no entry is applied twice on the follower), and streams the
 * image, built while it is sent, with it. The image is closed on every path; a failure of the
 * transport or of the image's producer is reported to the core as a failed send.
 * Follower: the image is written to `<snap-dir>/<index>.snap.db`, its SHA-256 checked and the
 * file fsynced before the leader is told it arrived (a body that fails the check is refused
 * and leaves no file); when the core hands the snapshot out, the backend's contents are
 * replaced by the image and every in-memory view of it (MVCC index, leases, alarms, members,
 * v2 store, auth) is rebuilt. A member stopped before that finishes the install at start
 * (finish-install.ts).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { formatId } from '../config/index.js';
import { ok, fail, type Result } from '../errors/domain-error.js';
import type { Member } from '../member/member.js';
import { decodeMessage, encodeMessage } from '../member/message-codec.js';
import type { PeerTransport } from '../peer/index.js';
import type { Message } from '../raft/index.js';
import { loadImageFile } from '../snapshot/state-image/load.js';
import { receiveImage } from '../snapshot/state-image/receive.js';
import { startStateImage, stateImagePieces } from '../snapshot/state-image/send.js';
import { reloadAppliedState, type AppliedState } from './reload-state.js';

/** The applied state it reloads after an install, and what it needs to send and receive. */
export interface SnapshotExchangeDeps extends AppliedState {
  readonly member: () => Member;
  readonly transport: () => PeerTransport;
  readonly snapDir: string;
  readonly logger: Logger;
  /** The image brought a cluster version other than the one the member had (a new member's first image). */
  readonly onClusterVersionRecovered: (to: string) => void;
}

export interface SnapshotExchange {
  /** Leader side: sends the state image for snapshot message `m`; reports the outcome to the core. */
  send(m: Message): Promise<void>;
  /** Follower side: the transport's onSnapshot handler. */
  receive(from: bigint, meta: Buffer, body: AsyncIterable<Buffer>): Promise<Result<void>>;
}

const hexIndex = (index: number): string => index.toString(16).padStart(16, '0');

/** Where a received state image for `index` is kept until its install completes. */
export function imagePath(snapDir: string, index: number): string {
  return join(snapDir, `${hexIndex(index)}.snap.db`);
}

/** Where an older kvstore kept it (KVSNAP01, no longer read: finish-install.ts). */
export function legacyImagePath(snapDir: string, index: number): string {
  return join(snapDir, `${hexIndex(index)}.snap.kv`);
}

export function snapshotExchange(d: SnapshotExchangeDeps): SnapshotExchange {
  const log = d.logger;
  return {
    async send(m) {
      const member = d.member();
      const peer = formatId(m.to);
      let ok = false;
      try {
        const { image, consistentIndex } = await startStateImage({ store: d.store, backend: d.backend, flush: () => member.flush() });
        try {
          const repointed = member.snapshotAt(m, Number(consistentIndex));
          if (repointed) {
            log.info({ 'remote-peer-id': peer, 'snapshot-index': consistentIndex.toString(), bytes: image.size }, 'sending database snapshot');
            const res = await d.transport().sendSnapshot(m.to, encodeMessage(repointed), stateImagePieces(image));
            ok = res.ok;
            if (!res.ok) log.warn({ 'remote-peer-id': peer, error: res.error }, 'failed to send database snapshot');
          }
        } finally {
          await image.close();
        }
      } catch (err) {
        log.warn({ err, 'remote-peer-id': peer }, 'failed to send database snapshot');
      }
      member.reportSnapshot(m.to, ok);
    },

    async receive(from, meta, body) {
      const m = decodeMessage(meta);
      if (!m.ok) return m;
      if (!m.value.snapshot) return fail({ kind: 'Internal', message: 'snapshot message without snapshot' });
      const index = m.value.snapshot.metadata.index;
      const path = imagePath(d.snapDir, index);
      let bytes: number;
      try {
        bytes = await receiveImage(body, path);
      } catch (err) {
        log.warn({ err, 'remote-peer-id': formatId(from), 'snapshot-index': index.toString() }, 'failed to receive database snapshot');
        return fail({ kind: 'Internal', message: `cannot receive the state image at index ${index}: ${err instanceof Error ? err.message : String(err)}` });
      }
      log.info({ 'remote-peer-id': formatId(from), 'snapshot-index': index.toString(), bytes }, 'received database snapshot');
      d.member().receiveSnapshot(m.value, async () => {
        // The log holds the snapshot now: a stop from here on is finished at the next start (finish-install.ts).
        log.info({ 'snapshot-index': index.toString(), bytes }, 'installing database snapshot');
        const versionBefore = d.clusterVersion.current;
        await loadImageFile(d.backend, path);
        await reloadAppliedState(d);
        await rm(path, { force: true });
        log.info({ 'snapshot-index': index.toString() }, 'applied database snapshot');
        const version = d.clusterVersion.current;
        if (version !== undefined && version !== versionBefore) {
          d.onClusterVersionRecovered(version);
          log.info({ 'cluster-version': version }, 'set cluster version from store');
        }
      });
      return ok(undefined);
    },
  };
}
