/**
 * A distributed lock (etcd's recipe): the holder's key is `<name>/<session lease in hex>`,
 * created under the session's lease; the waiter with the lowest create revision holds the lock,
 * the others wait for the deletion of the key just before theirs.
 */
import type { ResponseHeader } from '../../../proto/gen/etcd/rpc.js';
import { compare, Op, SortOrder, SortTarget } from '../ops.js';
import type { Result } from '../result.js';
import type { Session } from './session.js';
import { waitDeletes } from './wait-deletes.js';

export interface Mutex {
  /** Waits until the lock is held; on failure (or abort) the waiter's key is removed. */
  lock(signal?: AbortSignal): Promise<Result<ResponseHeader | undefined>>;
  unlock(opts?: { readonly timeoutMs?: number }): Promise<Result<void>>;
  /** `<name>/<lease hex>`. */
  readonly key: string;
}

export function newMutex(session: Session, name: string): Mutex {
  const pfx = `${name}/`;
  const key = `${pfx}${session.lease.toString(16)}`;
  const client = session.client;
  const unlock = async (o: { readonly timeoutMs?: number } = {}): Promise<Result<void>> => {
    const r = await client.kv.delete(key, o);
    return r.ok ? { ok: true, value: undefined } : r;
  };
  return {
    key,
    unlock,
    lock: async (signal) => {
      const s = signal === undefined ? {} : { signal };
      const owner = Op.get(pfx, { prefix: true, sortTarget: SortTarget.Create, sortOrder: SortOrder.Ascend, limit: 1n });
      const r = await client.kv.txn(
        {
          compare: [compare(key, '=', { target: 'create', value: 0n })],
          success: [Op.put(key, '', { lease: session.lease }), owner],
          failure: [Op.get(key), owner],
        },
        { timeoutMs: 0, ...s },
      );
      if (!r.ok) return r;
      let myRev = r.value.header?.revision ?? 0n;
      const first = r.value.responses[0]?.response;
      if (!r.value.succeeded && first?.$case === 'responseRange') myRev = first.value.kvs[0]?.createRevision ?? myRev;
      const ownerResp = r.value.responses[1]?.response;
      const ownerKvs = ownerResp?.$case === 'responseRange' ? ownerResp.value.kvs : [];
      if (ownerKvs.length === 0 || ownerKvs[0].createRevision === myRev) return { ok: true, value: r.value.header };
      const waited = await waitDeletes(client, pfx, myRev - 1n, signal);
      if (!waited.ok) {
        await unlock({ timeoutMs: 5000 });
        return waited;
      }
      return waited;
    },
  };
}
