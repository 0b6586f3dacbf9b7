/**
 * Leader election (etcd's recipe): each candidate puts `<name>/<session lease in hex>` with its
 * proposal under its session's lease; the candidate with the lowest create revision leads.
 * `observe` yields the current leader's key-value and each change of it.
 */
import { Event_EventType, type KeyValue } from '../../../proto/gen/etcd/kv.js';
import type { ResponseHeader } from '../../../proto/gen/etcd/rpc.js';
import { compare, Op, SortOrder, SortTarget } from '../ops.js';
import type { Result } from '../result.js';
import type { Session } from './session.js';
import { waitDeletes } from './wait-deletes.js';

export interface LeaderUpdate {
  readonly header: ResponseHeader | undefined;
  readonly kv: KeyValue;
}

export interface Election {
  /** Waits until this session leads with `value`. */
  campaign(value: string, signal?: AbortSignal): Promise<Result<void>>;
  /** Gives up leadership (deletes the leader key). */
  resign(opts?: { readonly timeoutMs?: number }): Promise<Result<void>>;
  /** The leader key of this candidate (after campaign). */
  readonly key: string;
  observe(signal?: AbortSignal): AsyncIterable<LeaderUpdate>;
}

export function newElection(session: Session, name: string): Election {
  const pfx = `${name}/`;
  const key = `${pfx}${session.lease.toString(16)}`;
  const client = session.client;
  let leaderRev = 0n;

  async function* observe(signal?: AbortSignal): AsyncGenerator<LeaderUpdate> {
    const s = signal === undefined ? {} : { signal };
    while (signal?.aborted !== true) {
      const r = await client.kv.get(pfx, { prefix: true, sortTarget: SortTarget.Create, sortOrder: SortOrder.Ascend, limit: 1n, timeoutMs: 0, ...s });
      if (!r.ok) return;
      let kv: KeyValue | undefined = r.value.kvs[0];
      let header = r.value.header;
      if (kv === undefined) {
        const w = client.watch(pfx, { prefix: true, startRevision: r.value.header?.revision ?? 0n, ...s });
        for await (const u of w) {
          if (!u.ok) return;
          const put = u.value.events.find((e) => e.type === Event_EventType.PUT);
          if (put?.kv !== undefined) {
            kv = put.kv;
            header = { ...u.value.header, revision: put.kv.modRevision };
            w.close();
            break;
          }
        }
        if (kv === undefined) return;
      }
      yield { header, kv };
      const w = client.watch(kv.key, { startRevision: (header?.revision ?? 0n) + 1n, ...s });
      let deleted = false;
      for await (const u of w) {
        if (!u.ok) return;
        for (const e of u.value.events) {
          if (e.type === Event_EventType.DELETE) {
            deleted = true;
            break;
          }
          if (e.kv !== undefined) yield { header: u.value.header, kv: e.kv };
        }
        if (deleted) {
          w.close();
          break;
        }
      }
      if (!deleted) return;
    }
  }

  return {
    key,
    campaign: async (value, signal) => {
      const s = signal === undefined ? {} : { signal };
      const r = await client.kv.txn(
        { compare: [compare(key, '=', { target: 'create', value: 0n })], success: [Op.put(key, value, { lease: session.lease })], failure: [Op.get(key)] },
        { timeoutMs: 0, ...s },
      );
      if (!r.ok) return r;
      leaderRev = r.value.header?.revision ?? 0n;
      if (!r.value.succeeded) {
        const got = r.value.responses[0]?.response;
        const kv = got?.$case === 'responseRange' ? got.value.kvs[0] : undefined;
        if (kv !== undefined) {
          leaderRev = kv.createRevision;
          if (kv.value.toString() !== value) {
            const p = await client.kv.txn(
              { compare: [compare(key, '=', { target: 'create', value: leaderRev })], success: [Op.put(key, value, { lease: session.lease })] },
              { timeoutMs: 0, ...s },
            );
            if (!p.ok) return p;
          }
        }
      }
      const waited = await waitDeletes(client, pfx, leaderRev - 1n, signal);
      if (!waited.ok) {
        await client.kv.delete(key, { timeoutMs: 5000 });
        return waited;
      }
      return { ok: true, value: undefined };
    },
    resign: async (opts = {}) => {
      const r = await client.kv.txn({ compare: [compare(key, '=', { target: 'create', value: leaderRev })], success: [Op.del(key)] }, opts);
      return r.ok ? { ok: true, value: undefined } : r;
    },
    observe,
  };
}
