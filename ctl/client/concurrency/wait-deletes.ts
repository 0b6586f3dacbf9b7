/**
 * Waiting until every key under a prefix created before a revision is deleted — the queue
 * discipline of locks and elections: the waiter with the next-lowest create revision waits
 * for the one just before it, so hand-over follows creation order.
 */
import type { ResponseHeader } from '../../../proto/gen/etcd/rpc.js';
import { Event_EventType } from '../../../proto/gen/etcd/kv.js';
import type { Client } from '../client.js';
import { canceled } from '../errors.js';
import { SortOrder, SortTarget } from '../ops.js';
import type { Result } from '../result.js';

/** Resolves once `key` is deleted (watching from `revision`). */
async function waitDelete(client: Client, key: Buffer, revision: bigint, signal: AbortSignal | undefined): Promise<Result<void>> {
  const w = client.watch(key, { startRevision: revision, ...(signal === undefined ? {} : { signal }) });
  for await (const r of w) {
    if (!r.ok) return r;
    if (r.value.events.some((e) => e.type === Event_EventType.DELETE)) {
      w.close();
      return { ok: true, value: undefined };
    }
    if (r.value.canceled) return { ok: false, error: canceled('watch canceled') };
  }
  return { ok: false, error: canceled() };
}

/** Resolves with the header of the last check once no key under `prefix` has create revision ≤ maxCreateRevision. */
export async function waitDeletes(client: Client, prefix: string, maxCreateRevision: bigint, signal?: AbortSignal): Promise<Result<ResponseHeader | undefined>> {
  for (;;) {
    const r = await client.kv.get(prefix, {
      prefix: true,
      sortTarget: SortTarget.Create,
      sortOrder: SortOrder.Descend,
      limit: 1n,
      maxCreateRevision,
      timeoutMs: 0,
      ...(signal === undefined ? {} : { signal }),
    });
    if (!r.ok) return r;
    if (r.value.kvs.length === 0) return { ok: true, value: r.value.header };
    const waited = await waitDelete(client, r.value.kvs[0].key, r.value.header?.revision ?? 0n, signal);
    if (!waited.ok) return waited;
  }
}
