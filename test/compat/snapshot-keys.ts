/**
 * Snapshot tests' view of keys: every key with its metadata as one comparable string per key,
 * read from a member (etcdctl get) or replayed from a snapshot file's `key` bucket.
 */
import { KeyValue } from '../../proto/gen/etcd/kv.js';
import { openBolt } from '../../server/snapshot/bbolt/index.js';
import { Crc32c } from '../../server/storage/crc32c.js';
import { parseCtlJson, type BoundCtl } from '../support/processes.js';

interface GetJson {
  header: { revision: number };
  kvs?: { key: string; create_revision: number; mod_revision: number; version: number; value: string; lease?: number | string }[];
}

/** Every key with its metadata, from `get "" --from-key -w json` (keys and values decoded, lease ids exact). */
export async function everyKey(ctl: BoundCtl, rev?: number): Promise<{ revision: number; kvs: Map<string, string> }> {
  const args = ['get', '', '--from-key', '-w', 'json', ...(rev === undefined ? [] : [`--rev=${rev}`])];
  const out = parseCtlJson(await ctl.ok(args, { timeoutMs: 60_000 })) as GetJson;
  const kvs = new Map<string, string>();
  for (const kv of out.kvs ?? []) {
    const key = Buffer.from(kv.key, 'base64').toString();
    const value = Buffer.from(kv.value, 'base64').toString();
    kvs.set(key, `${value}|c${kv.create_revision}|m${kv.mod_revision}|v${kv.version}|l${BigInt(kv.lease ?? 0)}`);
  }
  return { revision: out.header.revision, kvs };
}

/** The live keys of a snapshot's `key` bucket, formatted like `everyKey`, and its last revision. */
export async function snapshotKeys(path: string): Promise<{ revision: number; kvs: Map<string, string> }> {
  const r = await openBolt(path);
  try {
    const kvs = new Map<string, string>();
    let revision = 0;
    for await (const [k, v] of r.entries('key')) {
      revision = Number(k.readBigUInt64BE(0));
      const kv = KeyValue.decode(v);
      const key = kv.key.toString();
      if (k.length === 18 && k[17] === 0x74) kvs.delete(key);
      else kvs.set(key, `${kv.value.toString()}|c${kv.createRevision}|m${kv.modRevision}|v${kv.version}|l${kv.lease}`);
    }
    return { revision, kvs };
  } finally {
    await r.close();
  }
}

/** etcd 3.4's HashKV of a never-compacted `key` bucket: CRC-32C of "key", then every key and value. */
export async function keyBucketHash(path: string): Promise<number> {
  const r = await openBolt(path);
  try {
    const h = new Crc32c().update(Buffer.from('key'));
    for await (const [k, v] of r.entries('key')) h.update(k).update(v);
    return h.digest();
  } finally {
    await r.close();
  }
}
