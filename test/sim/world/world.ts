/**
 * A simulated cluster: N members running the real Member/Applier/MvccStore code on virtual
 * time, a simulated network and disks, a trace and the invariant checks.
 *
 * Driving: `run(untilMs)` executes tasks and timers in the VirtualScheduler's order, letting
 * the microtask queue drain after each one, and checks the invariants at every quiescent
 * point (no task queued, no microtask pending) after something ran. The first violation,
 * a member's fatal error or an exception thrown by a step stops the run with a SimFailure.
 * Everything random comes from the seed, so one seed always replays the same run.
 */
import { MessageType, type Message } from '../../../server/raft/index.js';
import { rangeAll } from '../../../server/apply/range-params.js';
import { Invariants, type ClusterView, type MemberView } from '../checks/invariants.js';
import { History, type OpRecord } from './history.js';
import type { LogImage } from './log-image.js';
import { Prng } from './prng.js';
import { SimNetwork } from './sim-network.js';
import { SimNode, type CrashKind, type NodeConfig } from './sim-node.js';
import type { DiskOptions } from './sim-wal.js';
import { Trace } from './trace.js';
import { describeError } from './describe-error.js';
import { receiveSnapshot, sendSnapshot } from './sim-snapshots.js';
import { settle, VirtualScheduler } from './virtual-scheduler.js';

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
  readonly traceCapacity?: number;
  /** Steps allowed at one virtual millisecond before the run fails as a storm/livelock. */
  readonly maxStepsPerMs?: number;
  /** See NetworkOptions.duplicateProposals. */
  readonly duplicateProposals?: boolean;
}

export type ResolvedOptions = Required<WorldOptions>;

export class SimFailure extends Error {
  constructor(
    readonly seed: number,
    readonly reasons: readonly string[],
    readonly traceTail: readonly string[],
  ) {
    super(`seed ${seed}: ${reasons[0] ?? 'failure'}`);
  }

  /** The failure as a report: seed, every reason, and the trace leading to it. */
  report(traceLines = 60): string {
    return [
      `SIMULATION FAILED — seed ${this.seed} (replay: SIM_SEED=${this.seed} SIM_SEEDS=1)`,
      ...this.reasons.map((r) => `  ${r}`),
      `last ${Math.min(traceLines, this.traceTail.length)} trace lines:`,
      ...this.traceTail.slice(-traceLines).map((l) => `  ${l}`),
    ].join('\n');
  }
}

export class World {
  readonly options: ResolvedOptions;
  readonly sched = new VirtualScheduler();
  readonly rng: Prng;
  readonly net: SimNetwork;
  readonly nodes: readonly SimNode[];
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
      duplicateProposals: false,
      maxStepsPerMs: 20_000,
      ...options,
    };
    const o = this.options;
    this.rng = new Prng(o.seed);
    this.trace = new Trace(o.traceCapacity);
    this.invariants = new Invariants(BigInt(o.size));
    this.net = new SimNetwork(this.sched, this.rng.fork('network'), {
      deliver: (to, m) => this.#deliver(to, m),
      deliverSnapshot: (to, m, image) => {
        const inc = this.node(to).running;
        if (!inc) return false;
        receiveSnapshot(inc, m, image, (line) => this.log(line));
        return true;
      },
      unreachable: (from, to) => this.node(from).running?.member.unreachable(to),
      trace: (line) => this.log(line),
    }, { duplicateProposals: o.duplicateProposals });
    const voters = Array.from({ length: o.size }, (_, i) => BigInt(i + 1));
    this.nodes = voters.map((id) => {
      const config: NodeConfig = {
        id,
        clusterId: 0x5157n,
        voters,
        tickMs: o.tickMs,
        electionTicks: o.electionTicks,
        preVote: o.preVote,
        requestTimeoutMs: o.requestTimeoutMs,
        snapshotCount: o.snapshotCount,
        catchUpEntries: o.catchUpEntries,
        disk: o.disk,
      };
      return new SimNode(config, this.sched, this.rng.fork(`node${id}`), {
        send: (m) => {
          if (m.type !== MessageType.MsgSnap) return this.net.send(m);
          const inc = this.node(m.from).running;
          if (inc) void sendSnapshot(inc, m, this.net, (line) => this.log(line));
        },
        onWritten: (nodeId, placed) => this.invariants.onWritten(nodeId, placed),
        committedChainAt: (index) => this.invariants.committedChainAt(index),
        onEvents: (nodeId, revision, events) => this.invariants.onEvents(nodeId, revision, events),
        onFatal: (nodeId, error) => this.#problems.push(`m${nodeId} fatal: ${describeError(error)}`),
        trace: (line) => this.log(line),
      });
    });
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

  get quorum(): number {
    return Math.floor(this.nodes.length / 2) + 1;
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

  /** Boots member `id` from its disk (no-op when it is running). */
  restart(id: bigint): void {
    const n = this.node(id);
    if (n.up) return;
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
    return { members, durable, quorum: this.quorum };
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
   * Compares the applied state of running members that have applied the same index: the
   * store hash and a dump of every key. Returns the mismatches (also recorded as problems).
   */
  async compareStates(): Promise<string[]> {
    const byIndex = new Map<bigint, Array<{ id: bigint; hash: number; dump: string }>>();
    for (const n of this.nodes) {
      const inc = n.running;
      if (!inc?.started) continue;
      const index = inc.member.appliedIndex;
      // Mid-install of a snapshot the store is already ahead of the applied index.
      if (inc.store.consistentIndex > index) continue;
      const all = await inc.store.range(rangeAll(Buffer.from([0]), Buffer.from([0])));
      if (!all.ok) throw new Error(`m${n.id}: range failed: ${all.error.kind}`);
      const dump = all.value.kvs.map((kv) => `${kv.key.toString()}=${kv.value.toString()}@${kv.createRevision}/${kv.modRevision}/${kv.version}`).join(',');
      const hash = await inc.store.hash();
      if (inc.member.appliedIndex !== index) continue;
      byIndex.set(index, [...(byIndex.get(index) ?? []), { id: n.id, hash, dump: `rev=${inc.store.currentRevision} ${dump}` }]);
    }
    const problems: string[] = [];
    for (const [index, group] of byIndex) {
      for (const other of group.slice(1)) {
        const first = group[0]!;
        if (other.hash !== first.hash || other.dump !== first.dump) {
          problems.push(`applied state differs at index ${index}: m${first.id} [${first.dump}] hash ${first.hash}, m${other.id} [${other.dump}] hash ${other.hash}`);
        }
      }
    }
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

export { describeError };
