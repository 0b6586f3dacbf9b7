/**
 * A session: a lease kept alive in the background, the owner of lock and election keys.
 *
 * `done` resolves when the keep-alive ends (lease expired or revoked, or the session closed);
 * `close()` stops renewing and revokes the lease (its keys go with it).
 */
import type { Client } from '../client.js';
import type { Result } from '../result.js';

export interface Session {
  readonly client: Client;
  readonly lease: bigint;
  readonly done: Promise<void>;
  /** Stops the keep-alive; with `revoke` (default) also revokes the lease. */
  close(revoke?: boolean): Promise<void>;
}

export const DEFAULT_SESSION_TTL = 60;

export async function newSession(client: Client, opts: { readonly ttl?: number; readonly signal?: AbortSignal } = {}): Promise<Result<Session>> {
  const granted = await client.lease.grant(BigInt(opts.ttl ?? DEFAULT_SESSION_TTL), { timeoutMs: 0, ...(opts.signal === undefined ? {} : { signal: opts.signal }) });
  if (!granted.ok) return granted;
  const lease = granted.value.ID;
  const stop = new AbortController();
  const done = (async () => {
    for await (const r of client.lease.keepAlive(lease, { signal: stop.signal })) {
      if (!r.ok || r.value.TTL <= 0n) return;
    }
  })();
  return {
    ok: true,
    value: {
      client,
      lease,
      done,
      close: async (revoke = true) => {
        stop.abort();
        await done;
        if (revoke) await client.lease.revoke(lease, { timeoutMs: 5000 });
      },
    },
  };
}
