/**
 * `createClient`: the typed etcd v3 client shared by kvstorectl and the operator.
 *
 * Creating a client does no I/O: channels connect on first use (like etcd's Go client without
 * a blocking dial). `connect()` is the blocking dial: it waits until one endpoint is ready, or
 * fails with `context deadline exceeded` after `dialTimeoutMs`. `close()` ends every channel;
 * calls made afterwards fail with an Unavailable error.
 */
import { makeAuth, type Auth } from './auth.js';
import { makeCluster, type Cluster } from './cluster.js';
import { deadlineExceeded } from './errors.js';
import { Invoker } from './invoker.js';
import type { KeyLike } from './keys.js';
import { makeKV, type KV } from './kv.js';
import { makeLease, type Lease } from './lease.js';
import { makeMaintenance, type Maintenance } from './maintenance.js';
import { resolveOptions, type ClientOptions } from './options.js';
import { EndpointPool } from './pool.js';
import type { Result } from './result.js';
import { watch, type WatchOptions, type Watcher } from './watch.js';

export interface Client {
  readonly kv: KV;
  readonly lease: Lease;
  readonly cluster: Cluster;
  readonly maintenance: Maintenance;
  readonly auth: Auth;
  /** Starts a watch (see watch.ts); nothing is sent until iteration starts. */
  watch(key: KeyLike, opts?: WatchOptions): Watcher;
  /** The endpoints of the list, as given. */
  readonly endpoints: readonly string[];
  /**
   * Blocking dial: waits for one ready endpoint, at most `dialTimeoutMs` (or until `signal`),
   * then, when credentials are configured, authenticates within the same time.
   */
  connect(signal?: AbortSignal): Promise<Result<string>>;
  close(): void;
}

export function createClient(options: ClientOptions): Client {
  const opts = resolveOptions(options);
  const pool = new EndpointPool(opts);
  const inv = new Invoker(pool, opts);
  return {
    kv: makeKV(inv),
    lease: makeLease(inv),
    cluster: makeCluster(inv),
    maintenance: makeMaintenance(inv, opts.logger),
    auth: makeAuth(inv),
    watch: (key, wopts) => watch(inv, key, wopts),
    endpoints: pool.endpoints,
    connect: async (signal) => {
      const deadline = Date.now() + opts.dialTimeoutMs;
      const r = await pool.pick(deadline, signal);
      if (!r.ok) return r.error.kind !== 'DeadlineExceeded' ? r : { ok: false, error: deadlineExceeded(r.error.details) };
      const auth = await inv.authenticate(deadline, signal);
      return auth.ok ? r : auth;
    },
    close: () => pool.close(),
  };
}
