/**
 * An in-process cluster of Raft nodes driven synchronously: each node's "application" persists
 * to a MemoryRaftStorage and applies entries into a history; messages wait in one FIFO queue
 * until delivered. Links can be cut (partitions); messages can be dropped, duplicated, reordered
 * by the caller. Optionally traces every Ready and message for golden transcripts.
 */
import { EntryType, type Entry } from '../../../../server/raft/log-types.js';
import {
  createRaftNode,
  decodeConfChange,
  MemoryRaftStorage,
  MessageType,
  type Message,
  type RaftConfig,
  type Ready,
} from '../../../../server/raft/index.js';
import { formatEntries, formatMessage, formatSnapshot } from './format.js';
import { TestNode, type Applied } from './test-node.js';

export { TestNode, type Applied };

export interface NodeOptions {
  readonly voters?: readonly bigint[];
  readonly learners?: readonly bigint[];
  readonly electionTicks?: number;
  readonly heartbeatTicks?: number;
  readonly preVote?: boolean;
  readonly checkQuorum?: boolean;
  readonly maxInflight?: number;
  readonly maxSizePerMsg?: number;
  readonly rng?: () => number;
  /** Log and hard state the node starts with (as if persisted before a restart). */
  readonly entries?: readonly Entry[];
  readonly hardState?: { term: number; vote: bigint; commit: number };
}

const link = (from: bigint, to: bigint): string => `${from}->${to}`;

export class Network {
  readonly nodes = new Map<bigint, TestNode>();
  queue: Message[] = [];
  readonly #blocked = new Set<string>();
  /** Golden-transcript output; undefined when not tracing. */
  trace: string[] | undefined;
  /** Called for every entry a node applies (invariant checkers hook in here). */
  onApply: ((node: TestNode, entry: Applied) => void) | undefined;
  /** Called after a node's Ready was handled and advanced. */
  onReady: ((node: TestNode, rd: Ready) => void) | undefined;
  readonly defaults: NodeOptions;

  constructor(defaults: NodeOptions = {}, trace?: string[]) {
    this.defaults = defaults;
    this.trace = trace;
  }

  /** Adds node `id`; voters default to every id given in `opts.voters` or just the ids added together. */
  add(id: bigint, opts: NodeOptions = {}): TestNode {
    const o = { ...this.defaults, ...opts };
    const config: RaftConfig = {
      id,
      voters: o.voters ?? [id],
      learners: o.learners ?? [],
      electionTicks: o.electionTicks ?? 10,
      heartbeatTicks: o.heartbeatTicks ?? 1,
      preVote: o.preVote ?? false,
      checkQuorum: o.checkQuorum ?? false,
      maxInflight: o.maxInflight ?? 256,
      maxSizePerMsg: o.maxSizePerMsg ?? 1 << 20,
      rng: o.rng ?? (() => 0),
      storage: new MemoryRaftStorage(),
    };
    const storage = config.storage as MemoryRaftStorage;
    if (o.entries !== undefined) storage.append(o.entries);
    if (o.hardState !== undefined) storage.setHardState(o.hardState);
    const n = new TestNode(config, storage);
    if (o.hardState !== undefined && o.entries !== undefined) {
      // The preloaded committed prefix counts as applied by the application.
      for (const e of o.entries) if (e.index <= o.hardState.commit) n.applied.push({ index: e.index, term: e.term, kind: 'normal', data: e.data.toString('utf8') });
      n.node = createRaftNode({ ...config, applied: o.hardState.commit });
    }
    this.nodes.set(id, n);
    return n;
  }

  get(id: bigint): TestNode {
    const n = this.nodes.get(id);
    if (n === undefined) throw new Error(`no node ${id}`);
    return n;
  }

  ids(): bigint[] {
    return [...this.nodes.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * Crash and restart: unpersisted state is lost; the application keeps what it applied.
   *
   * The core rebuilds membership from the storage's snapshot (else the bootstrap voters), so it
   * must be handed the committed log from the snapshot index on: conf changes applied after the
   * snapshot exist only in the log. Entries the application already applied come back in
   * committedEntries; it re-applies their conf changes to the core and skips their data (as
   * etcd's server does below its consistent index). Starting at the applied index instead would
   * restart the node with a stale membership (e.g. the bootstrap voters), which no member does.
   */
  restart(id: bigint): void {
    const old = this.get(id);
    old.node = createRaftNode({ ...old.config, applied: old.storage.firstIndex() - 1 });
  }

  #log(line: string): void {
    this.trace?.push(line);
  }

  /** Handles one Ready of node `id` like the member actor would. Returns false when there was none. */
  handleReady(id: bigint): boolean {
    const n = this.get(id);
    if (!n.node.hasReady()) return false;
    const rd: Ready = n.node.ready();
    if (rd.softState !== undefined) this.#log(`${id}: ${rd.softState.raftState} lead=${rd.softState.lead}`);
    if (rd.hardState !== undefined) {
      const hs = rd.hardState;
      this.#log(`${id}: hardstate term=${hs.term} vote=${hs.vote} commit=${hs.commit}`);
    }
    if (rd.snapshot !== undefined) {
      this.#log(`${id}: install snapshot ${formatSnapshot(rd.snapshot)}`);
      const res = n.storage.applySnapshot(rd.snapshot);
      if (!res.ok) throw new Error(`applySnapshot: ${res.error.kind}`);
      n.restoreData(rd.snapshot.data);
    }
    if (rd.entries.length > 0) {
      this.#log(`${id}: persist ${formatEntries(rd.entries)}`);
      n.storage.append(rd.entries);
    }
    if (rd.hardState !== undefined) n.storage.setHardState(rd.hardState);
    if (rd.committedEntries.length > 0) {
      this.#log(`${id}: apply ${formatEntries(rd.committedEntries)}`);
      for (const e of rd.committedEntries) this.#apply(n, e);
    }
    for (const rs of rd.readStates) {
      this.#log(`${id}: read ctx=${rs.requestCtx.toString('utf8')} index=${rs.index}`);
      n.readStates.push(rs);
    }
    for (const m of rd.messages) {
      this.#log(formatMessage(m));
      this.queue.push(m);
    }
    n.node.advance(rd);
    this.onReady?.(n, rd);
    return true;
  }

  #apply(n: TestNode, e: Entry): void {
    if (e.index <= n.appliedIndex()) {
      this.#replay(n, e);
      return;
    }
    if (e.type === EntryType.ENTRY_CONF_CHANGE) {
      const cc = decodeConfChange(e.data);
      if (cc === undefined) throw new Error(`undecodable conf change at ${e.index}`);
      const cs = n.node.applyConfChange(cc);
      n.confHistory.push({ index: e.index, cs });
      this.#record(n, { index: e.index, term: e.term, kind: 'conf', data: `${cc.type} ${cc.nodeId}` });
      this.#log(`${n.id}: conf voters=[${cs.voters.join(' ')}] learners=[${cs.learners.join(' ')}]`);
    } else {
      this.#record(n, { index: e.index, term: e.term, kind: 'normal', data: e.data.toString('utf8') });
    }
  }

  /** An entry applied before a restart, handed out again: only its conf change reaches the core. */
  #replay(n: TestNode, e: Entry): void {
    const was = n.applied.find((a) => a.index === e.index);
    if (was === undefined || was.term !== e.term) {
      throw new Error(`node ${n.id} replays ${e.term}/${e.index} but applied ${was === undefined ? 'nothing' : `${was.term}/${was.index}`} there`);
    }
    if (e.type !== EntryType.ENTRY_CONF_CHANGE) return;
    const cc = decodeConfChange(e.data);
    if (cc === undefined) throw new Error(`undecodable conf change at ${e.index}`);
    const cs = n.node.applyConfChange(cc);
    this.#log(`${n.id}: reapply conf voters=[${cs.voters.join(' ')}] learners=[${cs.learners.join(' ')}]`);
  }

  #record(n: TestNode, a: Applied): void {
    const last = n.appliedIndex();
    if (a.index !== last + 1) throw new Error(`node ${n.id} applies ${a.index} after ${last}`);
    n.applied.push(a);
    this.onApply?.(n, a);
  }

  /** Delivers one message (or drops it when its link is cut or the recipient is gone). */
  deliver(m: Message): void {
    const to = this.nodes.get(m.to);
    if (to === undefined || this.#blocked.has(link(m.from, m.to))) {
      this.#log(`dropped: ${formatMessage(m)}`);
      if (m.type === MessageType.MsgSnap) this.nodes.get(m.from)?.node.reportSnapshot(m.to, false);
      return;
    }
    to.node.step(m);
    if (m.type === MessageType.MsgSnap) this.nodes.get(m.from)?.node.reportSnapshot(m.to, true);
  }

  /** Delivers the messages queued right now (not those their delivery produces). */
  deliverAll(filter?: (m: Message) => boolean): number {
    const batch = this.queue;
    this.queue = [];
    for (const m of batch) {
      if (filter === undefined || filter(m)) this.deliver(m);
      else this.queue.push(m);
    }
    return batch.length;
  }

  /** Handles Readies and delivers messages until nothing moves; messages matching `drop` are lost. */
  stabilize(maxRounds = 1000, drop?: (m: Message) => boolean): void {
    for (let round = 0; round < maxRounds; round++) {
      let moved = false;
      for (const id of this.ids()) while (this.handleReady(id)) moved = true;
      if (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        for (const m of batch) {
          if (drop?.(m) === true) this.#log(`dropped: ${formatMessage(m)}`);
          else this.deliver(m);
        }
        moved = true;
      }
      if (!moved) return;
    }
    throw new Error(`not stable after ${maxRounds} rounds`);
  }

  tick(id: bigint, times = 1): void {
    for (let i = 0; i < times; i++) this.get(id).node.tick();
  }

  /** Cuts every link between different groups (ids not listed keep all links). */
  partition(groups: readonly (readonly bigint[])[]): void {
    this.heal();
    for (const [gi, g] of groups.entries()) {
      for (const [hi, h] of groups.entries()) {
        if (gi === hi) continue;
        for (const a of g) for (const b of h) this.#blocked.add(link(a, b));
      }
    }
  }

  isolate(id: bigint): void {
    for (const other of this.ids()) {
      if (other === id) continue;
      this.#blocked.add(link(id, other));
      this.#blocked.add(link(other, id));
    }
  }

  cut(from: bigint, to: bigint): void {
    this.#blocked.add(link(from, to));
  }

  heal(): void {
    this.#blocked.clear();
  }

  /** Ids of nodes that currently believe they lead, with their terms. */
  leaders(): { id: bigint; term: number }[] {
    const out: { id: bigint; term: number }[] = [];
    for (const id of this.ids()) {
      const s = this.get(id).node.status();
      if (s.raftState === 'Leader') out.push({ id, term: s.term });
    }
    return out;
  }

  /** Builds a cluster of voters 1..n (and learners), all knowing the same membership. */
  static cluster(n: number, opts: NodeOptions = {}, trace?: string[]): Network {
    const net = new Network(opts, trace);
    const voters = Array.from({ length: n }, (_, i) => BigInt(i + 1));
    for (const id of [...voters, ...(opts.learners ?? [])]) net.add(id, { voters, ...opts });
    return net;
  }
}
