/**
 * The header revision a member answers with, through three routes of its client port: a
 * serializable gRPC Range, a gRPC Watch's `created` response, and a serializable Range through
 * the JSON gateway (`/v3/kv/range`). Each probe opens its own connection and rejects on any
 * failure (refused, unavailable, deadline), so `firstAnswer` can poll a member that is starting
 * and report the first answer it served.
 */
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { openKv } from './kv-client.js';
import type { Member } from './server-process.js';

/** One attempt: the header revision of one answer. */
export type RevisionProbe = (m: Member, key: string, timeoutMs: number) => Promise<bigint>;

/** A serializable gRPC Range of `key`. */
export const serializableRange: RevisionProbe = (m, key, timeoutMs) => {
  const kv = openKv(m.endpoint);
  const req = { ...pb.RangeRequest.fromJSON({}), key: Buffer.from(key), serializable: true };
  return new Promise<bigint>((resolve, reject) => {
    kv.range(req, new grpc.Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) =>
      err ? reject(err) : res.header === undefined ? reject(new Error('no header')) : resolve(res.header.revision),
    );
  }).finally(() => kv.close());
};

/** A gRPC Watch on `key`: the revision of its `created` response. */
export const watchCreated: RevisionProbe = (m, key, timeoutMs) => {
  const client = new pb.WatchClient(m.endpoint, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  const stream = client.watch(new grpc.Metadata(), { deadline: Date.now() + timeoutMs });
  return new Promise<bigint>((resolve, reject) => {
    stream.on('error', reject);
    stream.once('data', (r: pb.WatchResponse) => (r.created && r.header !== undefined ? resolve(r.header.revision) : reject(new Error('watch not created'))));
    stream.write({ requestUnion: { $case: 'createRequest', value: { ...pb.WatchCreateRequest.fromJSON({}), key: Buffer.from(key) } } });
  }).finally(() => {
    stream.cancel();
    client.close();
  });
};

/** A serializable Range through the JSON gateway (etcd 3.4's `/v3` prefix). */
export const gatewaySerializableRange: RevisionProbe = async (m, key, timeoutMs) => {
  const res = await fetch(`${m.clientUrl}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({ key: Buffer.from(key).toString('base64'), serializable: true }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`gateway answered ${res.status}: ${text}`);
  // Revisions are decimal strings in the gateway's JSON; read them without JSON.parse's numbers.
  const found = /"revision":"(\d+)"/.exec(text);
  if (found === null) throw new Error(`no header revision in ${text}`);
  return BigInt(found[1]);
};

/**
 * Polls `probe` every `intervalMs` until it answers; resolves with that first answer. Rejects
 * after `boundMs` (a failure threshold, not a timing) with the last error.
 */
export async function firstAnswer(probe: RevisionProbe, m: Member, key: string, opts: { readonly boundMs: number; readonly intervalMs?: number }): Promise<bigint> {
  const deadline = Date.now() + opts.boundMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      return await probe(m, key, 3_000);
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 5));
  }
  throw new Error(`no answer from ${m.name} within ${opts.boundMs} ms`, { cause: last });
}
