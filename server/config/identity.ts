/**
 * Member and cluster IDs, derived as etcd derives them (so IDs match a real etcd cluster
 * bootstrapped with the same URLs and token):
 *
 * - member ID = first 8 bytes, big-endian, of SHA-1 over the member's peer URLs sorted and
 *   concatenated, then the cluster token, then — only for members added at runtime — the Unix
 *   time in whole seconds as decimal text;
 * - cluster ID = first 8 bytes, big-endian, of SHA-1 over the sorted member IDs, each as
 *   8 bytes big-endian.
 *
 * Worked example: one member `http://localhost:2380`, token `etcd-cluster` →
 * SHA-1("http://localhost:2380etcd-cluster") → member 8e9e05c52164694d → cluster cdf818194e3a8c32.
 * IDs are printed as lowercase hex without padding.
 */
import { createHash } from 'node:crypto';

/**
 * @param peerUrls the member's peer URL texts (any order; sorted here).
 * @param token the initial cluster token.
 * @param now Unix time in MILLISECONDS for a member added at runtime (truncated to whole
 *   seconds before hashing); omitted for the members of the initial cluster.
 */
export function memberIdFor(peerUrls: readonly string[], token: string, now?: number): bigint {
  let text = [...peerUrls].sort().join('') + token;
  if (now !== undefined) text += String(Math.floor(now / 1000));
  return first8(createHash('sha1').update(text, 'utf8').digest());
}

/** Cluster ID of a member set (any order; sorted here). */
export function clusterIdFor(memberIds: readonly bigint[]): bigint {
  const sorted = [...memberIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const buf = Buffer.alloc(8 * sorted.length);
  sorted.forEach((id, i) => buf.writeBigUInt64BE(BigInt.asUintN(64, id), 8 * i));
  return first8(createHash('sha1').update(buf).digest());
}

/** Lowercase hex without padding, as etcd prints IDs (`8e9e05c52164694d`). */
export function formatId(id: bigint): string {
  return BigInt.asUintN(64, id).toString(16);
}

/** Parses an ID printed by formatId (or etcdctl's `%x`); undefined when not 1–16 hex digits. */
export function parseId(text: string): bigint | undefined {
  return /^[0-9a-fA-F]{1,16}$/.test(text) ? BigInt('0x' + text) : undefined;
}

function first8(digest: Buffer): bigint {
  return digest.readBigUInt64BE(0);
}
