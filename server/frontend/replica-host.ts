/**
 * The front end's read replica (mvcc/read-replica.ts) and what comes with it: the core's
 * context (header fields, auth, leader, learner), the demand that decides when the replica is
 * kept (replica-demand.ts), and the replica records from the core (records.ts `Replica*`)
 * applied in order. What the thread serves from the replica builds on it: serializable Ranges
 * (local-reads.ts) and Watch streams (local-watches.ts, which follows every change).
 *
 * - No replica until a call that could use one asks (`wanted`): the core is then asked for an
 *   image and the call goes to the core.
 * - A replica record that fails to apply drops the replica ("broken"); everything goes to the
 *   core until the next image, which the next `wanted` asks for.
 * - Once a second the demand is checked: an unused replica is dropped and the core told
 *   (`onIdle`), so it stops feeding it.
 */
import { performance } from 'node:perf_hooks';
import type { Event } from '../../proto/gen/etcd/kv.js';
import { ReadReplica } from '../mvcc/read-replica.js';
import type { Backend } from '../storage/backend.js';
import { FromCore } from './records.js';
import { ReplicaDemand } from './replica-demand.js';
import { decodeChange, decodeContext, decodeRevision, type ReplicaContext } from './replica-records.js';

export interface ReplicaHostOptions {
  /** The front end's handle on the member's backend, if it could open one. */
  readonly backend: Backend | undefined;
  /** The replica failed to follow the core; everything is forwarded until the next image. */
  readonly onBroken: (err: Error) => void;
  /** Ask the core for a replica (an image, then the feed). */
  readonly onWanted: () => void;
  /** The replica was dropped: the core may stop feeding it. */
  readonly onIdle: () => void;
  /** See replica-demand.ts (default DEFAULT_REPLICA_IDLE_MS). */
  readonly idleMs?: number;
}

/**
 * The replica's changes, as a front end's watch hub follows them (local-watches.ts), in the
 * order the core made them.
 */
export interface ReplicaFollower {
  /** Whether the changes' events should carry their previous records (open watch streams). */
  readonly wantsPrev: boolean;
  /** A replica from a new image: whatever was built on the previous one is stale. */
  imaged(replica: ReadReplica): void;
  /** A write transaction ended at `main` with these events (the replica already holds them). */
  changed(main: bigint, events: Event[]): void;
  compacted(revision: bigint): void;
  /** The replica is gone (dropped while unused, or it failed to follow). */
  dropped(): void;
}

/** How often the replica's use is checked. */
const IDLE_CHECK_MS = 1_000;

export class ReplicaHost {
  #replica: ReadReplica | undefined;
  #context: ReplicaContext | undefined;
  #broken = false;
  #follower: ReplicaFollower | undefined;
  readonly demand: ReplicaDemand;
  readonly #timer: NodeJS.Timeout;

  constructor(private readonly o: ReplicaHostOptions) {
    this.demand = new ReplicaDemand(o.idleMs);
    this.#timer = setInterval(() => {
      if (this.#replica === undefined || !this.demand.idle(performance.now())) return;
      this.#drop();
      this.o.onIdle();
    }, IDLE_CHECK_MS);
    this.#timer.unref();
  }

  /** Also feeds the replica's changes to `follower`. */
  follow(follower: ReplicaFollower): void {
    this.#follower = follower;
  }

  /** Whether the thread can hold a replica at all (it opened the member's database). */
  get possible(): boolean {
    return this.o.backend !== undefined;
  }

  /** The core's context, once it sent one. */
  get context(): ReplicaContext | undefined {
    return this.#context;
  }

  /** The replica held now, if any. */
  get replica(): ReadReplica | undefined {
    return this.#replica;
  }

  /** A call that could use the replica was seen now: asks the core for one if needed; the replica, if held. */
  wanted(): ReadReplica | undefined {
    if (this.demand.asked(performance.now())) this.o.onWanted();
    return this.#replica;
  }

  /** Stops checking the replica's use. */
  close(): void {
    clearInterval(this.#timer);
  }

  /** A replica record from the core (records.ts `Replica*`). */
  fromCore(kind: number, payload: Buffer): void {
    if (this.o.backend === undefined) return;
    // A new image starts over, even after a failure.
    if (kind === FromCore.ReplicaImage) this.#broken = false;
    if (this.#broken) return;
    try {
      this.#apply(kind, payload);
    } catch (err) {
      this.#broken = true;
      this.demand.lost();
      this.#drop();
      this.o.onBroken(err as Error);
    }
  }

  #drop(): void {
    this.#replica = undefined;
    this.#follower?.dropped();
  }

  #apply(kind: number, payload: Buffer): void {
    switch (kind) {
      case FromCore.ReplicaImage:
        this.#replica = ReadReplica.fromImage(this.o.backend!, payload);
        this.demand.imaged();
        this.#follower?.imaged(this.#replica);
        return;
      case FromCore.ReplicaContext:
        this.#context = decodeContext(payload);
        return;
    }
    const replica = this.#replica;
    if (replica === undefined) return;
    switch (kind) {
      case FromCore.ReplicaHold: {
        const { main, events } = decodeChange(payload);
        replica.hold(main, events);
        return;
      }
      case FromCore.ReplicaChange: {
        const { main, events } = decodeChange(payload);
        const follower = this.#follower;
        replica.applyChange(main, events as Event[], follower?.wantsPrev === true);
        follower?.changed(main, events as Event[]);
        return;
      }
      case FromCore.ReplicaRelease:
        replica.release(decodeRevision(payload));
        return;
      case FromCore.ReplicaCompact: {
        const revision = decodeRevision(payload);
        replica.compact(revision);
        this.#follower?.compacted(revision);
        return;
      }
    }
  }
}
