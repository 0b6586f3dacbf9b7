/**
 * A simulated cluster: members running the real Member/Applier/MvccStore code on virtual
 * time, a simulated network and disks, membership changes, client histories, a trace and
 * the invariant checks.
 *
 * Driving: `run(untilMs)` executes tasks and timers in the VirtualScheduler's order, letting
 * the microtask queue drain after each one, and checks the invariants at every quiescent
 * point (no task queued, no microtask pending) after something ran. The first violation,
 * a member's fatal error or an exception thrown by a step stops the run with a SimFailure.
 * Everything random comes from the seed, so one seed always replays the same run.
 */
import type { MemberRecord } from '../../../server/membership/membership.js';
import { MessageType, type Message } from '../../../server/raft/index.js';
import { compareStates } from '../checks/compare-states.js';
import { Invariants, type ClusterView, type MemberView } from '../checks/invariants.js';
import { describeError } from './describe-error.js';
import { History, type OpRecord } from './history.js';
import type { LogImage } from './log-image.js';
import { MembershipChanges } from './membership-changes.js';
import { Prng } from './prng.js';
import { SimFailure } from './sim-failure.js';
import { SimNetwork } from './sim-network.js';
import { SimNode, type CrashKind, type Incarnation } from './sim-node.js';
import { receiveSnapshot, sendSnapshot } from './sim-snapshots.js';
import type { DiskOptions } from './sim-wal.js';
import { Trace } from './trace.js';
import { settle, VirtualScheduler } from './virtual-scheduler.js';

export { describeError, SimFailure };

export interface WorldOptions {
  readonly seed: number;
  readonly size?: number;
  readonly preVote?: boolean;
  readonly tickMs?: number;
  readonly electionTicks?: number;
  /** The member's proposal / read deadline. */
  readonly requestTimeoutMs?: number;
  readonly disk?: DiskOptions;
  /** Applied entries between snapshots (a member compacts its log after one). */
  readonly snapshotCount?: number;
  readonly catchUpEntries?: number;
  /** See NodeConfig.logWindowBytes; 0 by default, so that every entry the log hands out after its write is read back from the WAL. */
  readonly logWindowBytes?: number;
  readonly traceCapacity?: number;
  /** See NodeConfig.immediateBackendWrites. */
  readonly immediateBackendWrites?: boolean;
  /** Steps allowed at one virtual millisecond before the run fails as a storm/livelock. */
  readonly maxStepsPerMs?: number;
  /** See NetworkOptions.duplicateProposals. */
  readonly duplicateProposals?: boolean;
}

export type ResolvedOptions = Required<WorldOptions>;

export class World {
  readonly options: ResolvedOptions;
  readonly sched = new VirtualScheduler();
  readonly rng: Prng;
  readonly net: SimNetwork;
  /** Every member ever created (founding, added, removed), in id order. */
  readonly nodes: SimNode[] = [];
  /** Membership changes proposed during the run, and who is pending, active or removed. */
  readonly membership: MembershipChanges;
  #minVoters: number;
  readonly history = new History();
  readonly trace: Trace;
  readonly invariants: Invariants;
  /** Tasks and timers run so far. */
  steps = 0;
  checks = 0;
  readonly #problems: string[] = [];

  constructor(options: WorldOptions) {
    this.options = {
      size: 3,
      preVote: true,
      tickMs: 100,
      electionTicks: 10,
      requestTimeoutMs: 3000,
      disk: { fsyncMinMs: 1, fsyncMaxMs: 10 },
      traceCapacity: 200,
      snapshotCount: 1_000_000_000,
      catchUpEntries: 5000,
      logWindowBytes: 0,
      duplicateProposals: false,
      maxStepsPerMs: 20_000,
      immediateBackendWrites: false,
      ...options,
    };
    const o = this.options;
    this.rng = new Prng(o.seed);
    this.trace = new Trace(o.traceCapacity);
    this.invariants = new Invariants(o.size);
    this.net = new SimNetwork(this.sched, this.rng.fork('network'), {
      deliver: (to, m) => this.#deliver(to, m),
      deliverSnapshot: (to, m, image) => {
        const node = this.node(to);
        if (!node.running) return false;
        return receiveSnapshot(node.running, node.images, m, image, (line) => this.log(line));
      },
      unreachable: (from, to) => this.node(from).running?.member.unreachable(to),
      trace: (line) => this.log(line),
    }, { duplicateProposals: o.duplicateProposals });
    this.#minVoters = o.size;
    this.membership = new MembershipChanges({
      leader: () => this.leader(),
      node: (id) => this.node(id),
      nextId: () => BigInt(this.nodes.length + 1),
      createNode: (id, join) => this.#makeNode(id, this.nodes.slice(0, o.size).map((n) => n.id), join),
      restart: (id) => this.restart(id),
      after: (ms, what, fn) => this.after(ms, what, fn),
      log: (text) => this.log(text),
      rng: this.rng.fork('membership'),
    });
    const voters = Array.from({ length: o.size }, (_, i) => BigInt(i + 1));
    for (const id of voters) this.#makeNode(id, voters, undefined);
  }

  #makeNode(id: bigint, voters: readonly bigint[], join: readonly MemberRecord[] | undefined): SimNode {
    const o = this.options;
    const node = new SimNode(
      {
        id,
        clusterId: 0x5157n,
        voters,
        tickMs: o.tickMs,
        electionTicks: o.electionTicks,
        preVote: o.preVote,
        requestTimeoutMs: o.requestTimeoutMs,
        snapshotCount: o.snapshotCount,
        catchUpEntries: o.catchUpEntries,
        logWindowBytes: o.logWindowBytes,
        disk: o.disk,
        immediateBackendWrites: o.immediateBackendWrites,
        join,
      },
      this.sched,
      this.rng.fork(`node${id}`),
      {
        send: (m) => {
          if (m.type !== MessageType.MsgSnap) return this.net.send(m);
          const inc = this.node(m.from).running;
          if (inc) void sendSnapshot(inc, m, this.net, (line) => this.log(line));
        },
        onWritten: (nodeId, placed) => this.invariants.onWritten(nodeId, placed),
        committedChainAt: (index) => this.invariants.committedChainAt(index),
        onEvents: (nodeId, revision, events) => this.invariants.onEvents(nodeId, revision, events),
        onFatal: (nodeId, error) => this.#problems.push(`m${nodeId} fatal: ${describeError(error)}`),
        onConfChange: (nodeId, cc) => this.membership.applied(nodeId, cc),
        trace: (line) => this.log(line),
      },
    );
    this.nodes.push(node);
    return node;
  }

  /** A world with every member booted. */
  static async create(options: WorldOptions): Promise<World> {
    const w = new World(options);
    for (const n of w.nodes) w.restart(n.id);
    await w.run(w.now);
    return w;
  }

  get now(): number {
    return this.sched.now;
  }

  /** Members taking part now: neither waiting to be added nor removed. */
  get active(): SimNode[] {
    return this.nodes.filter((n) => this.membership.isActive(n.id));
  }

  node(id: bigint): SimNode {
    const n = this.nodes[Number(id) - 1];
    if (!n) throw new Error(`no member ${id}`);
    return n;
  }

  log(text: string): void {
    this.trace.line(this.now, text);
  }

  /** Resolves after `ms` of virtual time (world-owned: survives every crash). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => void this.sched.at(ms, resolve));
  }

  /** Runs `fn` after `ms` of virtual time; an exception fails the run. */
  after(ms: number, what: string, fn: () => void): void {
    this.sched.at(ms, () => {
      try {
        fn();
      } catch (e) {
        this.#problems.push(`${what} threw: ${describeError(e)}`);
      }
    });
  }

  crash(id: bigint, kind: CrashKind): void {
    this.log(this.node(id).crash(kind));
  }

  /** Boots member `id` from its disk (no-op when it is running, not added yet, or removed). */
  restart(id: bigint): void {
    const n = this.node(id);
    if (n.up || !this.membership.isActive(id)) return;
    n.boot().catch((e: unknown) => this.#problems.push(`m${id} boot failed: ${describeError(e)}`));
  }

  /** The started member that believes it leads, with the highest term. */
  leader(): SimNode | undefined {
    let best: SimNode | undefined;
    for (const n of this.nodes) {
      const inc = n.running;
      if (!inc?.started || !inc.member.isLeader) continue;
      if (!best || inc.member.term > best.running!.member.term) best = n;
    }
    return best;
  }

  readonly #onAnswered: Array<(op: OpRecord) => void> = [];

  /** Runs `fn` once, when the next client operation is answered successfully. */
  onNextAnswer(fn: (op: OpRecord) => void): void {
    this.#onAnswered.push(fn);
  }

  /** Called by clients when an operation was answered successfully. */
  answered(op: OpRecord): void {
    const fns = this.#onAnswered.splice(0);
    for (const fn of fns) fn(op);
  }

  /** Fails the run with `reason` at the next check. */
  fail(reason: string): void {
    this.#problems.push(reason);
  }

  #stepsAt = { ms: -1, steps: 0 };

  /**
   * Runs until virtual time `untilMs` (or until nothing is left to run). A run that takes
   * more than `maxStepsPerMs` steps without time advancing (a message storm, a livelock)
   * fails.
   */
  async run(untilMs: number): Promise<void> {
    for (;;) {
      await settle();
      if (!this.sched.busy) this.#check();
      const kind = this.sched.runNext(untilMs);
      if (kind === 'idle') return;
      this.steps++;
      if (this.#stepsAt.ms !== this.now) this.#stepsAt = { ms: this.now, steps: 0 };
      else if (++this.#stepsAt.steps > this.options.maxStepsPerMs) {
        this.#problems.push(`time stopped: more than ${this.options.maxStepsPerMs} steps at virtual time ${this.now} (message storm or livelock)`);
        this.throwIfFailed();
      }
    }
  }

  /** Runs until `done()` holds at a quiescent point, or `timeoutMs` passed; returns whether it held. */
  async runUntil(done: () => boolean, timeoutMs: number, sliceMs = 50): Promise<boolean> {
    const end = this.now + timeoutMs;
    while (this.now < end) {
      if (done()) return true;
      await this.run(Math.min(end, this.now + sliceMs));
    }
    return done();
  }

  view(): ClusterView {
    const members: MemberView[] = [];
    const durable = new Map<bigint, LogImage>();
    for (const n of this.nodes) {
      durable.set(n.id, n.disk.durable);
      const inc = n.running;
      if (!inc?.started) continue;
      const voters = inc.membership.voters().length;
      if (voters > 0 && voters < this.#minVoters) this.#minVoters = voters;
      members.push({
        id: n.id,
        generation: inc.generation,
        isLeader: inc.member.isLeader,
        term: inc.member.term,
        appliedIndex: inc.member.appliedIndex,
        currentRevision: inc.store.currentRevision,
        installing: inc.store.consistentIndex > inc.member.appliedIndex,
        written: inc.wal.written,
      });
    }
    // An entry is committed on a majority of the configuration it was committed in: at
    // least a majority of the smallest configuration the run has had.
    return { members, durable, quorum: Math.floor(this.#minVoters / 2) + 1 };
  }

  #check(): void {
    this.checks++;
    const view = this.view();
    this.invariants.afterStep(view);
    this.trace.mix(view.members.map((m) => `${m.id}:${m.term}:${m.appliedIndex}:${m.isLeader ? 'L' : ''}`).join(' '));
    this.throwIfFailed();
  }

  /** Throws a SimFailure if any invariant was violated or any step failed. */
  throwIfFailed(): void {
    const reasons = [...this.#problems, ...this.invariants.violations];
    if (reasons.length > 0) throw new SimFailure(this.options.seed, reasons, this.trace.tail());
  }

  /**
   * Compares the applied state of running members at equal applied indexes (see
   * checks/compare-states.ts); mismatches are returned and recorded as problems. Once a
   * member joined, the member buckets may legitimately differ below the index it joined
   * at, so only the MVCC records are compared then.
   */
  async compareStates(): Promise<string[]> {
    const running = new Map<bigint, Incarnation>();
    for (const n of this.nodes) if (n.running) running.set(n.id, n.running);
    const problems = await compareStates(running, !this.membership.joined);
    this.#problems.push(...problems);
    return problems;
  }

  #deliver(to: bigint, m: Message): boolean {
    const inc = this.node(to).running;
    if (!inc) return false;
    inc.member.receive(m);
    return true;
  }
}

