/**
 * A write load for operator tests: one put at a time under unique keys `<prefix><seq>`, sent
 * round-robin over the members; a failed put is retried like etcd's client retries an
 * Unavailable write — up to 3 times with a growing pause (100, 200, 400 ms: under a
 * second in all, so a real outage still fails) — each time on the next member that is neither
 * the one that just failed nor, AT THAT MOMENT, under maintenance (`setMaintenance`, fed from
 * the operator's status). Unlike test/support/put-stream.ts the retry target is chosen
 * when the retry is sent, so a member the operator announces while the first attempt is in
 * flight is avoided, and the retry waits for its channel to be connected (as etcd's client
 * balancer only picks connected members) instead of failing fast while gRPC is still backing
 * off from a member that was down a moment ago. `stop()` → the acknowledged puts (the shape
 * `unmatchedAcks` checks) and the puts whose every attempt failed.
 */
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KVClient, PutResponse } from '../../../proto/gen/etcd/rpc.js';
import { kvChannel } from '../../support/put-stream.js';
import type { AckedPut } from '../../support/processes.js';

function put(kv: KVClient, key: string, value: string, waitForReady: boolean): Promise<PutResponse> {
  return new Promise((resolve, reject) => {
    kv.put(
      { key: Buffer.from(key), value: Buffer.from(value), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false },
      new Metadata({ waitForReady }),
      { deadline: Date.now() + ATTEMPT_TIMEOUT_MS },
      (err: ServiceError | null, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

export interface FailedPut {
  readonly key: string;
  readonly attempts: readonly { readonly endpoint: string; readonly error: string; readonly at: string }[];
}

const RETRY_BACKOFF_MS = [100, 200, 400] as const;
const ATTEMPT_TIMEOUT_MS = 10_000;

export class RetryingWriter {
  private readonly channels: KVClient[];
  private readonly acked = new Map<string, AckedPut>();
  private readonly failedPuts: FailedPut[] = [];
  private retried = 0;
  private readonly maintenance = new Set<string>();
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly endpoints: readonly string[],
    private readonly prefix: string,
  ) {
    this.channels = endpoints.map(kvChannel);
    this.loop = this.run();
  }

  setMaintenance(endpoint: string, on: boolean): void {
    if (on) this.maintenance.add(endpoint);
    else this.maintenance.delete(endpoint);
  }

  /** The acknowledged puts, how many needed a retry, and the puts that failed every attempt. */
  async stop(): Promise<{ acked: ReadonlyMap<string, AckedPut>; retried: number; failed: readonly FailedPut[] }> {
    this.running = false;
    await this.loop;
    for (const c of this.channels) c.close();
    return { acked: this.acked, retried: this.retried, failed: this.failedPuts };
  }

  private retryTarget(failed: number): number {
    const n = this.endpoints.length;
    for (let k = 1; k < n; k++) {
      const j = (failed + k) % n;
      if (!this.maintenance.has(this.endpoints[j])) return j;
    }
    return (failed + 1) % n;
  }

  private async attempt(i: number, key: string, value: string, retried: boolean): Promise<string | undefined> {
    try {
      const res = await put(this.channels[i], key, value, retried);
      this.acked.set(key, { value, revision: res.header?.revision ?? -1n, endpoint: this.endpoints[i], at: Date.now(), retried });
      return undefined;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  private async run(): Promise<void> {
    for (let n = 0; this.running; n++) {
      const key = `${this.prefix}${String(n).padStart(7, '0')}`;
      const value = `value-${n}`;
      let target = n % this.endpoints.length;
      const attempts: { endpoint: string; error: string; at: string }[] = [];
      for (let a = 0; a <= RETRY_BACKOFF_MS.length; a++) {
        if (a > 0) {
          await sleep(RETRY_BACKOFF_MS[a - 1]);
          target = this.retryTarget(target);
        }
        const at = new Date().toISOString();
        const error = await this.attempt(target, key, value, a > 0);
        if (error === undefined) break;
        attempts.push({ endpoint: this.endpoints[target], error, at });
      }
      if (attempts.length > RETRY_BACKOFF_MS.length) this.failedPuts.push({ key, attempts });
      else if (attempts.length > 0) this.retried++;
    }
  }
}
