/** Snapshot tests' view of a member's keys: every key with its metadata, as one comparable string per key. */
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
