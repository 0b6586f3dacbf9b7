/**
 * Lease-based leader election (coordination.k8s.io/v1 Lease), one elector per operator process.
 *
 * Every `retryPeriodMs` the elector reads the Lease and, per lease-record.ts, creates it, takes
 * it over when it is free or expired, or renews it while holding it. Writes are optimistic
 * (replace with the read resourceVersion): a 409 means another candidate won the race.
 * - Becoming leader calls `onStartedLeading(signal)`; `signal` aborts when leadership ends.
 * - A leader that has not renewed for `renewDeadlineMs` (API errors, lost races, calls that hang)
 *   steps down: `onStoppedLeading()`, then keeps running as a candidate. Seeing another holder on
 *   the lease steps down at once.
 * - `stop()` ends the loop; a leader releases the lease (empty holder) so another candidate can
 *   take over without waiting for expiry, then `onStoppedLeading()` is called.
 * Defaults follow client-go: lease 15 s, renew deadline 10 s, retry period 2 s.
 */
import type { KubeClient, KubeError } from './kube/types.js';
import {
  LEASE_API_VERSION,
  LEASE_KIND,
  asMicroTime,
  decideAttempt,
  microTime,
  observe,
  type Lease,
  type LeaseSpec,
  type Observation,
} from './lease-record.js';
import { sleep, type Cancel, type Timers } from './timers.js';

export interface LeaderElectionOptions {
  readonly kube: KubeClient;
  readonly timers: Timers;
  readonly namespace: string;
  /** Lease name (e.g. `kvstore-operator`). */
  readonly name: string;
  /** This candidate (e.g. the pod name plus a random suffix). */
  readonly identity: string;
  readonly leaseDurationMs?: number;
  readonly renewDeadlineMs?: number;
  readonly retryPeriodMs?: number;
  readonly onStartedLeading: (signal: AbortSignal) => void;
  readonly onStoppedLeading: () => void;
  /** Called when the observed holder changes ('' = nobody). */
  readonly onNewLeader?: (identity: string) => void;
  /** Called when an attempt fails for a reason other than the lease being held. */
  readonly onError?: (error: KubeError) => void;
  /** Jitter source in [0, 1): each wait is retryPeriod · (1 + 1.2 · random()), as client-go
   * does, so candidates drift apart. Absent: no jitter (deterministic tests). */
  readonly random?: () => number;
}

type AttemptResult = { readonly kind: 'Held' } | { readonly kind: 'HeldByOther' } | { readonly kind: 'Failed' };

export class LeaderElector {
  readonly #o: LeaderElectionOptions;
  readonly #durationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryMs: number;
  readonly #stop = new AbortController();
  #observation: Observation | undefined;
  #lastHolder: string | undefined;
  #leading: AbortController | undefined;
  #lastRenew = 0;
  #watchdog: Cancel | undefined;
  #loop: Promise<void> | undefined;

  constructor(options: LeaderElectionOptions) {
    this.#o = options;
    this.#durationMs = options.leaseDurationMs ?? 15_000;
    this.#renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.#retryMs = options.retryPeriodMs ?? 2_000;
  }

  get isLeader(): boolean {
    return this.#leading !== undefined;
  }

  /** Starts the election loop (idempotent; an elector is not restarted after stop). */
  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stops the loop; a leader releases the lease first. Resolves when done. */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
    if (this.#leading !== undefined) {
      await this.#release();
      this.#stepDown();
    }
  }

  async #run(): Promise<void> {
    while (!this.#stop.signal.aborted) {
      const attemptedAt = this.#o.timers.now();
      const result = await this.#attempt();
      if (this.#stop.signal.aborted) break;
      if (result.kind === 'Held') {
        // Counted from before the request: others start counting expiry only after they read it.
        this.#lastRenew = attemptedAt;
        this.#armWatchdog();
        if (this.#leading === undefined) {
          this.#leading = new AbortController();
          this.#o.onStartedLeading(this.#leading.signal);
        }
      } else if (this.#leading !== undefined) {
        if (result.kind === 'HeldByOther' || this.#o.timers.now() - this.#lastRenew >= this.#renewDeadlineMs) this.#stepDown();
      }
      const jitter = this.#o.random === undefined ? 0 : 1.2 * this.#o.random();
      await sleep(this.#o.timers, this.#retryMs * (1 + jitter), this.#stop.signal);
    }
  }

  /** A leader whose renewals stall (even in a hanging call) steps down at the renew deadline. */
  #armWatchdog(): void {
    this.#watchdog?.();
    const remaining = this.#renewDeadlineMs - (this.#o.timers.now() - this.#lastRenew);
    this.#watchdog = this.#o.timers.schedule(remaining, () => {
      this.#watchdog = undefined;
      if (this.#leading !== undefined && this.#o.timers.now() - this.#lastRenew >= this.#renewDeadlineMs) this.#stepDown();
    });
  }

  #stepDown(): void {
    this.#watchdog?.();
    this.#watchdog = undefined;
    const leading = this.#leading;
    if (leading === undefined) return;
    this.#leading = undefined;
    leading.abort();
    this.#o.onStoppedLeading();
  }

  #ref() {
    return { apiVersion: LEASE_API_VERSION, kind: LEASE_KIND, namespace: this.#o.namespace, name: this.#o.name };
  }

  #noteHolder(spec: LeaseSpec | undefined): void {
    const holder = spec?.holderIdentity ?? '';
    if (holder !== this.#lastHolder) {
      this.#lastHolder = holder;
      this.#o.onNewLeader?.(holder);
    }
  }

  async #attempt(): Promise<AttemptResult> {
    const now = this.#o.timers.now();
    const durationSeconds = Math.max(1, Math.round(this.#durationMs / 1000));
    const read = await this.#o.kube.get<Lease>(this.#ref());
    if (!read.ok && read.error.kind !== 'NotFound') return this.#failed(read.error);
    if (!read.ok) {
      const decision = decideAttempt(this.#o.identity, undefined, { record: '', at: now }, now, durationSeconds);
      if (decision.kind !== 'Write') return { kind: 'HeldByOther' };
      const created = await this.#o.kube.create<Lease>({
        apiVersion: LEASE_API_VERSION,
        kind: LEASE_KIND,
        metadata: { name: this.#o.name, namespace: this.#o.namespace },
        spec: decision.spec,
      });
      if (!created.ok) return created.error.kind === 'AlreadyExists' ? { kind: 'Failed' } : this.#failed(created.error);
      return this.#written(created.value.spec, now);
    }
    const lease = read.value;
    this.#observation = observe(this.#observation, lease.spec, now);
    this.#noteHolder(lease.spec);
    const decision = decideAttempt(this.#o.identity, lease.spec, this.#observation, now, durationSeconds);
    if (decision.kind === 'HeldByOther') return { kind: 'HeldByOther' };
    const replaced = await this.#o.kube.replace<Lease>({ ...lease, spec: decision.spec });
    if (!replaced.ok) return replaced.error.kind === 'Conflict' ? { kind: 'Failed' } : this.#failed(replaced.error);
    return this.#written(replaced.value.spec, now);
  }

  #written(spec: LeaseSpec | undefined, now: number): AttemptResult {
    this.#observation = observe(undefined, spec, now);
    this.#noteHolder(spec);
    return { kind: 'Held' };
  }

  #failed(error: KubeError): AttemptResult {
    this.#o.onError?.(error);
    return { kind: 'Failed' };
  }

  /** Gives the lease up: empty holder, so others need not wait for it to expire. */
  async #release(): Promise<void> {
    const read = await this.#o.kube.get<Lease>(this.#ref());
    if (!read.ok || read.value.spec?.holderIdentity !== this.#o.identity) return;
    const held = read.value.spec;
    const spec: LeaseSpec = {
      ...held,
      ...(held.acquireTime !== undefined ? { acquireTime: asMicroTime(held.acquireTime) } : {}),
      holderIdentity: '',
      leaseDurationSeconds: 1,
      renewTime: microTime(this.#o.timers.now()),
    };
    const released = await this.#o.kube.replace<Lease>({ ...read.value, spec });
    if (!released.ok) this.#o.onError?.(released.error);
  }
}
