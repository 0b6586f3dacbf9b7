/**
 * The member's data-dir layout:
 *   <data-dir>/member/wal/                   the write-ahead log (or --wal-dir)
 *   <data-dir>/member/snap/db                the backend holding the applied v3 state
 *   <data-dir>/member/snap/key-index.ckpt    the key index as the member left it at its last
 *                                            clean stop (consumed at the next start)
 */
import { join } from 'node:path';
import type { ServerConfig } from '../config/types.js';

export interface DataDirLayout {
  readonly memberDir: string;
  readonly walDir: string;
  readonly snapDir: string;
  readonly backendPath: string;
  readonly indexCheckpointPath: string;
}

export function dataDirLayout(config: ServerConfig): DataDirLayout {
  const memberDir = join(config.dataDir, 'member');
  const snapDir = join(memberDir, 'snap');
  return { memberDir, walDir: config.effectiveWalDir, snapDir, backendPath: join(snapDir, 'db'), indexCheckpointPath: join(snapDir, 'key-index.ckpt') };
}

/** WAL metadata record: member id and cluster id, 8 bytes big-endian each. */
export function encodeWalMetadata(memberId: bigint, clusterId: bigint): Buffer {
  const b = Buffer.alloc(16);
  b.writeBigUInt64BE(memberId, 0);
  b.writeBigUInt64BE(clusterId, 8);
  return b;
}

export function decodeWalMetadata(b: Buffer): { memberId: bigint; clusterId: bigint } {
  return { memberId: b.readBigUInt64BE(0), clusterId: b.readBigUInt64BE(8) };
}
