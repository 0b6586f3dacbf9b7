/**
 * A client that writes continuously while a test disturbs the cluster (restarts, upgrades).
 *
 * Contract:
 * - one put at a time, each under a new unique key `<prefix><seq>` with value `value-<seq>`;
 * - put number i goes to endpoint i mod n over gRPC (one channel per endpoint, no wait-for-ready:
 *   a member that is down fails the call at once), the member under maintenance included; a
 *   failed put is retried ONCE, with the same key and value, after RETRY_BACKOFF_MS, against the
 *   next endpoint that is not under maintenance (`setMaintenance`); a put is acknowledged when one
 *   of its attempts answered OK;
 * - `stop()` lets the put in flight finish and returns every acknowledged put (value, revision,
 *   endpoint: the shape `unmatchedAcks` of write-load.ts checks a read-back against), the puts that
 *   needed their retry, and the puts whose both attempts failed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { credentials, type ServiceError } from '@grpc/grpc-js';
import { KVClient } from '../../proto/gen/etcd/rpc.js';
import { put } from './kv-client.js';
import type { AckedPut } from './write-load.js';

/** One failed attempt. */
export interface FailedAttempt {
  readonly endpoint: string;
  readonly error: string;
  /** When the attempt started (ISO time) and how long it took until it failed: for diagnosis only. */
  readonly at: string;
  readonly ms: number;
}

/** A put that did not succeed at its first attempt. */
export interface RetriedPut {
  readonly key: string;
  readonly failures: readonly FailedAttempt[];
  readonly acknowledged: boolean;
}

/** What a stopped stream did. */
export interface PutStreamReport {
  /** Acknowledged key → what acknowledged it. */
  readonly acked: ReadonlyMap<string, AckedPut>;
  /** Puts whose first attempt failed and whose retry succeeded. */
  readonly retried: readonly RetriedPut[];
  /** Puts whose both attempts failed. */
  readonly failedTwice: readonly RetriedPut[];
}

const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * Pause before the retry: one default heartbeat interval (100 ms). A retry sent at once can land
 * in the same Raft election round (after a leader transfer every member answers `no leader`
 * until the new leader's first append, a few ms); a longer unavailability still fails twice.
 */
const RETRY_BACKOFF_MS = 100;

/** A gRPC KV channel of its own to `endpoint` (`host:port`), reconnecting quickly after a member restart. */
export function kvChannel(endpoint: string): KVClient {
  return new KVClient(endpoint, credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
    'grpc.initial_reconnect_backoff_ms': 100,
    'grpc.max_reconnect_backoff_ms': 1000,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
  });
}

function describeError(err: unknown): string {
  const e = err as Partial<ServiceError>;
  return e.code !== undefined ? `${e.code} ${e.details || e.message}` : String(err);
}

export class PutStream {
  private readonly channels: KVClient[];
  private readonly acked = new Map<string, AckedPut>();
  private readonly retried: RetriedPut[] = [];
  private readonly failedTwice: RetriedPut[] = [];
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private seq = 0;
  /** Endpoints under maintenance (being stopped, replaced, restarted): retries avoid them. */
  private readonly maintenance = new Set<number>();

  constructor(
    private readonly endpoints: readonly string[],
    private readonly prefix: string,
  ) {
    if (endpoints.length < 2) throw new Error('a put stream needs at least two endpoints (the retry goes to another one)');
    this.channels = endpoints.map(kvChannel);
  }

  /** Number of acknowledged puts so far. */
  get ackedCount(): number {
    return this.acked.size;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops after the put in flight and closes the channels. */
  async stop(): Promise<PutStreamReport> {
    this.running = false;
    await this.loop;
    for (const c of this.channels) c.close();
    return { acked: new Map(this.acked), retried: [...this.retried], failedTwice: [...this.failedTwice] };
  }

  /**
   * Marks `endpoint` as under maintenance (true) or back in service (false). Puts keep going to
   * it round-robin; only retries avoid it, as the operator of a rolling upgrade knows which member
   * it is taking down.
   */
  setMaintenance(endpoint: string, on: boolean): void {
    const i = this.endpoints.indexOf(endpoint);
    if (i < 0) throw new Error(`not an endpoint of this stream: ${endpoint}`);
    if (on) this.maintenance.add(i);
    else this.maintenance.delete(i);
  }

  /** The first endpoint after `failed` that is not under maintenance (or just the next one). */
  private retryTarget(failed: number): number {
    const n = this.endpoints.length;
    for (let k = 1; k < n; k++) {
      const j = (failed + k) % n;
      if (!this.maintenance.has(j)) return j;
    }
    return (failed + 1) % n;
  }

  private async run(): Promise<void> {
    while (this.running) {
      const n = this.seq++;
      const key = `${this.prefix}${String(n).padStart(7, '0')}`;
      const value = `value-${n}`;
      const failures: FailedAttempt[] = [];
      const first = n % this.endpoints.length;
      for (const i of [first, this.retryTarget(first)]) {
        if (failures.length > 0) await sleep(RETRY_BACKOFF_MS);
        const started = Date.now();
        try {
          const res = await put(this.channels[i], key, value, ATTEMPT_TIMEOUT_MS);
          const revision = res.header?.revision ?? -1n;
          this.acked.set(key, { value, revision, endpoint: this.endpoints[i], at: Date.now(), retried: failures.length > 0 });
          break;
        } catch (err) {
          failures.push({ endpoint: this.endpoints[i], error: describeError(err), at: new Date(started).toISOString(), ms: Date.now() - started });
        }
      }
      if (failures.length === 1) this.retried.push({ key, failures, acknowledged: true });
      if (failures.length === 2) this.failedTwice.push({ key, failures, acknowledged: false });
    }
  }
}
