/**
 * `Observe` of etcd's election recipe: the current leader of `prefix` (the key with the lowest
 * create revision), then every change of it.
 *
 * Loop: read the first key by create revision; none → watch the prefix from that read's revision
 * until a key is put (its header's revision is the put's); send it; then watch that key from the
 * next revision, sending each put of it, until it is deleted; start over. As in etcd, a failing
 * read or watch ends the observation quietly (the stream ends without an error), and so does
 * `signal`.
 */
import type { KeyValue } from '../../../proto/gen/etcd/kv.js';
import { Event_EventType } from '../../../proto/gen/etcd/kv.js';
import type * as epb from '../../../proto/gen/etcd/election.js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { ok, type Result } from '../../errors/domain-error.js';
import type { KvService, WatchService } from '../services.js';
import { byCreate, prefixEnd, watchUntil } from './election-ops.js';

export async function observeLeader(
  d: { readonly kv: KvService; readonly watch: WatchService },
  prefix: Buffer,
  send: (resp: epb.LeaderResponse) => void,
  signal: AbortSignal,
): Promise<Result<void>> {
  while (!signal.aborted) {
    const r = await d.kv.range(byCreate(prefix, pb.RangeRequest_SortOrder.ASCEND));
    if (!r.ok) return ok(undefined);
    let header = r.value.header;
    let kv: KeyValue | undefined = r.value.kvs[0];
    if (kv === undefined) {
      const put = await watchUntil(
        d.watch,
        { key: prefix, rangeEnd: prefixEnd(prefix), startRevision: header?.revision ?? 0n },
        (resp) => {
          const e = resp.events.find((ev) => ev.type === Event_EventType.PUT && ev.kv !== undefined);
          if (e?.kv === undefined) return false;
          kv = e.kv;
          header = resp.header === undefined ? undefined : { ...resp.header, revision: e.kv.modRevision };
          return true;
        },
        signal,
      );
      if (!put.ok || kv === undefined) return ok(undefined);
    }
    const leader: KeyValue = kv;
    send({ header, kv: leader });
    let deleted = false;
    const changes = await watchUntil(
      d.watch,
      { key: leader.key, startRevision: (header?.revision ?? 0n) + 1n },
      (resp) => {
        for (const e of resp.events) {
          if (e.type === Event_EventType.DELETE) {
            deleted = true;
            return true;
          }
          send({ header: resp.header, kv: e.kv });
        }
        return false;
      },
      signal,
    );
    if (!changes.ok || !deleted) return ok(undefined);
  }
  return ok(undefined);
}
