/**
 * A minimal etcd v3 KV client over @grpc/grpc-js and the generated KVClient: put one key, read
 * a whole prefix page by page. Each call has its own deadline; errors are the gRPC errors.
 */
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { KVClient, type PutResponse, type RangeRequest, type RangeResponse } from '../../proto/gen/etcd/rpc.js';

/** A KV channel to one `host:port`, not shared with other clients (its own subchannel). */
export function openKv(endpoint: string): KVClient {
  return new KVClient(endpoint, credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
  });
}

/** Puts `key` = `value`; resolves with the response (its header carries the revision). */
export function put(kv: KVClient, key: string, value: string, timeoutMs: number): Promise<PutResponse> {
  return new Promise((resolve, reject) => {
    kv.put(
      { key: Buffer.from(key), value: Buffer.from(value), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false },
      new Metadata(),
      { deadline: Date.now() + timeoutMs },
      (err: ServiceError | null, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

function rangeRequest(key: Buffer, rangeEnd: Buffer, revision: bigint, serializable: boolean): RangeRequest {
  return {
    key, rangeEnd, limit: 5000n, revision, sortOrder: 0, sortTarget: 0, serializable, keysOnly: false, countOnly: false,
    minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
  };
}

function range(kv: KVClient, req: RangeRequest, timeoutMs: number): Promise<RangeResponse> {
  return new Promise((resolve, reject) => {
    kv.range(req, new Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** The end of the range holding every key that starts with `prefix`. */
function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

/** A key's value and modRevision as read back. */
export interface StoredValue {
  readonly value: string;
  readonly modRevision: bigint;
}

/**
 * Reads every key under `prefix` at one revision (the first page's), 5000 keys per page.
 * `serializable` reads the member's local state without a read barrier.
 */
export async function readPrefix(
  kv: KVClient,
  prefix: string,
  opts: { readonly serializable?: boolean; readonly timeoutMs?: number } = {},
): Promise<{ kvs: Map<string, StoredValue>; revision: bigint }> {
  const out = new Map<string, StoredValue>();
  const end = prefixEnd(Buffer.from(prefix));
  let from = Buffer.from(prefix);
  let revision = 0n;
  for (;;) {
    const res = await range(kv, rangeRequest(from, end, revision, opts.serializable === true), opts.timeoutMs ?? 10_000);
    if (revision === 0n) revision = res.header?.revision ?? 0n;
    for (const item of res.kvs) out.set(item.key.toString(), { value: item.value.toString(), modRevision: item.modRevision });
    if (!res.more || res.kvs.length === 0) break;
    from = Buffer.concat([res.kvs[res.kvs.length - 1].key, Buffer.from([0])]);
  }
  return { kvs: out, revision };
}
