/**
 * A concurrent write load on a cluster: `writers` closed-loop clients, each putting unique keys
 * `<prefix><writer>/<seq>` through its own gRPC channels, recording every acknowledged put
 * (value, revision) and every failed one.
 *
 * Contract:
 * - writer w starts on endpoint w mod n; a put is acknowledged only when the server answered it;
 * - after a failure, `retryOn(failedEndpoint)` may name one other endpoint: the same put is sent
 *   there once, and the writer stays on that endpoint. Without `retryOn` (or when it returns
 *   undefined) the put is given up and the writer moves on to the next endpoint;
 * - `stop()` lets every writer finish its current put, then closes all channels.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { KVClient } from '../../proto/gen/etcd/rpc.js';
import { openKv, put } from './kv-client.js';

/** A put the server acknowledged. */
export interface AckedPut {
  readonly value: string;
  readonly revision: bigint;
  readonly endpoint: string;
  /** Date.now() when the answer arrived. */
  readonly at: number;
  /** true when the acknowledgement came from a retry (an earlier attempt may also have applied). */
  readonly retried: boolean;
}

/** A put that failed, and what its retry (if any) did. */
export interface FailedPut {
  readonly key: string;
  readonly endpoint: string;
  readonly at: number;
  readonly error: string;
  retry?: { readonly endpoint: string; readonly error?: string };
}

export interface WriteLoadOptions {
  /** `host:port` client endpoints. */
  readonly endpoints: readonly string[];
  readonly writers: number;
  readonly prefix: string;
  /** Client deadline of one put (default 10 s, above both servers' request timeout). */
  readonly putTimeoutMs?: number;
  /** The endpoint to retry a failed put on, once (see the file header). */
  readonly retryOn?: (failedEndpoint: string) => string | undefined;
  /** Pause before the retry, as client libraries back off between attempts (default 25 ms, the Go client's). */
  readonly retryDelayMs?: number;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

export class WriteLoad {
  readonly acked = new Map<string, AckedPut>();
  readonly failures: FailedPut[] = [];
  #attempted = 0;
  #stopping = false;
  readonly #channels = new Map<string, KVClient>();
  readonly #done: Promise<void>;

  constructor(private readonly opts: WriteLoadOptions) {
    this.#done = Promise.all(Array.from({ length: opts.writers }, (_, w) => this.#writer(w))).then(() => undefined);
  }

  /** Puts sent so far (retries not counted). */
  get attempted(): number {
    return this.#attempted;
  }

  /** How many puts were acknowledged after `time` (a Date.now() value). */
  ackedAfter(time: number): number {
    let n = 0;
    for (const a of this.acked.values()) if (a.at > time) n++;
    return n;
  }

  /** The acknowledged put with the highest revision (undefined before the first). */
  latest(): [string, AckedPut] | undefined {
    let best: [string, AckedPut] | undefined;
    for (const e of this.acked) if (best === undefined || e[1].revision > best[1].revision) best = e;
    return best;
  }

  /** Lets every writer finish its current put, then closes the channels. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#done;
    for (const c of this.#channels.values()) c.close();
    this.#channels.clear();
  }

  #channel(writer: number, endpoint: string): KVClient {
    const k = `${writer}@${endpoint}`;
    let c = this.#channels.get(k);
    if (c === undefined) {
      c = openKv(endpoint);
      this.#channels.set(k, c);
    }
    return c;
  }

  async #attempt(writer: number, endpoint: string, key: string, value: string, retried: boolean): Promise<string | undefined> {
    try {
      const res = await put(this.#channel(writer, endpoint), key, value, this.opts.putTimeoutMs ?? 10_000);
      this.acked.set(key, { value, revision: res.header?.revision ?? -1n, endpoint, at: Date.now(), retried });
      return undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  async #writer(w: number): Promise<void> {
    const { endpoints, prefix } = this.opts;
    let home = endpoints[w % endpoints.length];
    for (let seq = 0; !this.#stopping; seq++) {
      const key = `${prefix}${pad(w, 3)}/${pad(seq, 7)}`;
      const value = `v${w}.${seq}`;
      this.#attempted++;
      const error = await this.#attempt(w, home, key, value, false);
      if (error === undefined) continue;
      const failure: FailedPut = { key, endpoint: home, at: Date.now(), error };
      this.failures.push(failure);
      const alt = this.opts.retryOn?.(home);
      if (alt !== undefined) {
        await sleep(this.opts.retryDelayMs ?? 25);
        const retryError = await this.#attempt(w, alt, key, value, true);
        failure.retry = retryError === undefined ? { endpoint: alt } : { endpoint: alt, error: retryError };
        home = alt;
      } else {
        home = endpoints[(endpoints.indexOf(home) + 1) % endpoints.length];
        await sleep(20);
      }
    }
  }
}

/**
 * The acknowledged puts that `kvs` (a read-back of the prefix) does not hold: missing keys,
 * other values, or — for puts acknowledged at the first attempt — another modRevision
 * (a retried put may have been applied twice, the later one wins).
 */
export function unmatchedAcks(acked: ReadonlyMap<string, AckedPut>, kvs: ReadonlyMap<string, { value: string; modRevision: bigint }>): string[] {
  const out: string[] = [];
  for (const [key, a] of acked) {
    const got = kvs.get(key);
    if (got === undefined) out.push(`${key}: missing (acknowledged at revision ${a.revision} by ${a.endpoint})`);
    else if (got.value !== a.value) out.push(`${key}: value ${got.value}, acknowledged ${a.value}`);
    else if (a.retried ? got.modRevision < a.revision : got.modRevision !== a.revision) {
      out.push(`${key}: modRevision ${got.modRevision}, acknowledged ${a.revision}`);
    }
  }
  return out;
}
