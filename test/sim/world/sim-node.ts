/**
 * One simulated machine: a disk (the WAL's durable records), a backend (MemoryBackend,
 * which keeps what was synced across a power loss; the process writes it through a
 * SimBackend, whose writes complete as I/O does), and at most one running incarnation of
 * the real member process built on them: MvccStore + lessor + alarms + membership +
 * Applier + Member, wired as server/bootstrap/start-member.ts wires them, but with the
 * virtual scheduler, the simulated WAL and the simulated network.
 *
 * crash(): the incarnation's life ends at once (its timers, queued tasks and sleeps are
 * dropped, its WAL saves never resolve, its messages are no longer sent); only the disk and
 * the backend's surviving copy remain. boot(): a new incarnation recovers from them.
 */
import type { Event } from '../../../proto/gen/etcd/kv.js';
import { loadV2Store } from '../../../server/bootstrap/v2.js';
import { ClusterVersionState } from '../../../server/clusterversion/cluster-version-state.js';
import type { V2Store } from '../../../server/v2store/store.js';
import { AlarmSet } from '../../../server/apply/alarms.js';
import { Applier } from '../../../server/apply/applier.js';
import { leasePort, restoreLeases } from '../../../server/bootstrap/lease-port.js';
import { createLessor, type Lessor } from '../../../server/lease/lessor.js';
import { minLeaseTtlSeconds } from '../../../server/lease/ttl.js';
import { Member } from '../../../server/member/member.js';
import { decodeMember, Membership, type MemberRecord } from '../../../server/membership/membership.js';
import { openMvccStore, type MvccStoreImpl } from '../../../server/mvcc/store.js';
import type { ConfChange, Message } from '../../../server/raft/index.js';
import { Bucket, type Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend, type MemoryBackend } from '../../../server/storage/memory-backend.js';
import { peerUrlOf, startMembership, type StartMode } from './member-start.js';
import type { Prng } from './prng.js';
import { SimBackend } from './sim-backend.js';
import { loadImageBytes } from '../../../server/snapshot/state-image/load.js';
import type { Placed } from './log-image.js';
import { SimDisk, type DiskOptions, type SimWal, type UnsyncedFate } from './sim-wal.js';
import type { Life, VirtualScheduler } from './virtual-scheduler.js';

export interface NodeConfig {
  readonly id: bigint;
  readonly clusterId: bigint;
  readonly voters: readonly bigint[];
  readonly tickMs: number;
  readonly electionTicks: number;
  readonly preVote: boolean;
  readonly requestTimeoutMs: number;
  /** Applied entries between snapshots. */
  readonly snapshotCount: number;
  /** Entries kept in the log before a snapshot. */
  readonly catchUpEntries: number;
  /** Payload bytes of the newest log entries a member keeps in memory (older ones are read back from the WAL). */
  readonly logWindowBytes: number;
  readonly disk: DiskOptions;
  /** Use the MemoryBackend directly: its writes resolve in the microtask that issued them. */
  readonly immediateBackendWrites: boolean;
  /**
   * For a member added to a running cluster: the member list it is started with (its
   * --initial-cluster: the members when it was added; itself excluded). Founding members
   * start from `voters`.
   */
  readonly join?: readonly MemberRecord[];
}

/** What a node reports to the world (all calls come from a live incarnation only). */
export interface NodeObserver {
  readonly send: (m: Message) => void;
  readonly onWritten: (id: bigint, placed: Placed) => void;
  readonly committedChainAt: (index: number) => string | undefined;
  readonly onEvents: (id: bigint, revision: bigint, events: readonly Event[]) => void;
  readonly onFatal: (id: bigint, error: Error) => void;
  readonly onConfChange: (id: bigint, cc: ConfChange) => void;
  readonly trace: (line: string) => void;
}

/** One running process of a member. */
export interface Incarnation {
  readonly life: Life;
  readonly generation: number;
  readonly wal: SimWal;
  /** The backend as this process uses it (writes complete as I/O does, unless immediateBackendWrites). */
  readonly backend: Backend;
  /** The machine's backend state behind it (what a crash keeps part of). */
  readonly memory: MemoryBackend;
  readonly store: MvccStoreImpl;
  readonly lessor: Lessor;
  readonly alarms: AlarmSet;
  readonly membership: Membership;
  readonly clusterVersion: ClusterVersionState;
  /** The v2 key space (applied like the v3 store; compared across members). */
  readonly v2: V2Store;
  readonly member: Member;
  /** True once member.start() has returned. */
  started: boolean;
  /** Resolves when this incarnation crashes (its clients see their connections drop). */
  readonly died: Promise<void>;
  readonly die: () => void;
}

/** How a crash treats volatile state: a killed process (page cache survives) or a power loss. */
export type CrashKind = 'kill' | 'power' | 'power-torn';

export class SimNode {
  readonly config: NodeConfig;
  readonly disk: SimDisk;
  /** The snap dir: received state images (index → image), kept until installed; they survive crashes. */
  readonly images = new Map<number, Buffer>();
  #backend: MemoryBackend = createMemoryBackend();
  #incarnation: Incarnation | undefined;
  #generation = 0;
  /** False until the first boot created the WAL (a fresh member of a new cluster). */
  #opened = false;
  readonly #sched: VirtualScheduler;
  readonly #rng: Prng;
  readonly #observer: NodeObserver;

  constructor(config: NodeConfig, sched: VirtualScheduler, rng: Prng, observer: NodeObserver) {
    this.config = config;
    this.#sched = sched;
    this.#rng = rng;
    this.#observer = observer;
    const meta = Buffer.alloc(16);
    meta.writeBigUInt64BE(config.id, 0);
    meta.writeBigUInt64BE(config.clusterId, 8);
    this.disk = new SimDisk(meta);
  }

  get id(): bigint {
    return this.config.id;
  }

  /** The running incarnation (undefined while down). */
  get running(): Incarnation | undefined {
    return this.#incarnation;
  }

  get up(): boolean {
    return this.#incarnation !== undefined;
  }

  /** Starts a new incarnation from the disk and backend. Resolves once member.start() returned (or the incarnation died). */
  async boot(): Promise<void> {
    if (this.#incarnation) throw new Error(`node ${this.id}: already running`);
    const generation = ++this.#generation;
    const life: Life = { name: `m${this.id}#${generation}`, alive: true };
    const memory = this.#backend;
    const backend: Backend = this.config.immediateBackendWrites ? memory : new SimBackend(memory, (fn) => this.#sched.later(fn, life));
    const store = await openMvccStore(backend);
    const c = this.config;
    const marker = this.disk.snapshot;
    if (marker && marker.index > store.consistentIndex) {
      // As the real bootstrap: the log holds a snapshot whose image had not replaced the
      // backend when the member stopped; finish that install from the kept image.
      const image = this.images.get(marker.index);
      if (!image) throw new Error(`the log holds a snapshot at index ${marker.index} but the backend is at ${store.consistentIndex} and its state image is missing`);
      await loadImageBytes(backend, image);
      await store.reload();
      this.images.delete(marker.index);
      this.#observer.trace(`m${this.id} finished installing the snapshot at ${marker.index} interrupted by a stop`);
    }
    const lessor = createLessor({ minTtlSeconds: minLeaseTtlSeconds(c.electionTicks, c.tickMs) });
    const restored = await restoreLeases(lessor, backend, store);
    if (!restored.ok) throw new Error(`node ${this.id}: cannot restore leases: ${restored.error.kind}`);
    const alarmKeys: Buffer[] = [];
    for await (const [k] of backend.iterate(Bucket.Alarm)) alarmKeys.push(k);
    const membership = await this.#loadMembership(backend);
    const clusterVersion = await ClusterVersionState.load(backend);
    const v2 = await loadV2Store(backend);
    const obs = this.#observer;
    const id = this.id;
    const alarms = AlarmSet.restore(alarmKeys);
    const applier = new Applier({
      store,
      leases: leasePort(lessor),
      alarms,
      membership,
      clusterVersion,
      v2,
      onEvents: (revision, events) => {
        if (life.alive) obs.onEvents(id, revision, events);
      },
      onCompacted: () => undefined,
    });
    const { wal, contents } = this.disk.open(this.#sched, life, this.#rng.fork(`wal${generation}`), c.disk, {
      onWritten: (placed) => {
        if (life.alive) obs.onWritten(id, placed);
      },
      committedChainAt: obs.committedChainAt,
    });
    const member = new Member({
      memberId: id,
      clusterId: c.clusterId,
      wal,
      store,
      applier,
      maxRequestBytes: 1.5 * 1024 * 1024,
      scheduler: this.#sched.port(life),
      random: this.#rng.fork(`raft${generation}`).asFunction(),
      tickMs: c.tickMs,
      electionTicks: c.electionTicks,
      preVote: c.preVote,
      requestTimeoutMs: c.requestTimeoutMs,
      snapshotCount: c.snapshotCount,
      catchUpEntries: c.catchUpEntries,
      logWindowBytes: c.logWindowBytes,
      send: (m) => {
        if (life.alive) obs.send(m);
      },
      hooks: {
        onLeaderChange: (lead, isLeader) => {
          if (!life.alive) return;
          if (isLeader) lessor.promote(this.#sched.now);
          else lessor.demote();
          obs.trace(`m${id} lead=${lead}${isLeader ? ' (self)' : ''} term=${member.term}`);
        },
        onFatal: (error) => {
          if (life.alive) obs.onFatal(id, error);
        },
        onConfChange: (cc) => {
          if (life.alive) obs.onConfChange(id, cc);
        },
      },
    });
    let die = (): void => undefined;
    const died = new Promise<void>((resolve) => (die = resolve));
    const inc: Incarnation = { life, generation, wal, backend, memory, store, lessor, alarms, membership, clusterVersion, v2, member, started: false, died, die };
    this.#incarnation = inc;
    obs.trace(`m${id} boot #${generation} applied=${store.consistentIndex} rev=${store.currentRevision} wal=${contents.entries.length} term=${contents.hardState.term}`);
    const mode: StartMode = this.#opened ? 'restart' : c.join ? 'joining' : 'founding';
    this.#opened = true;
    await member.start(contents, startMembership(mode, c.voters, membership));
    if (life.alive) inc.started = true;
  }

  /** Ends the running incarnation the way `kind` says; returns what the trace should say. */
  crash(kind: CrashKind): string {
    const inc = this.#incarnation;
    if (!inc) return `m${this.id} already down`;
    inc.life.alive = false;
    inc.die();
    this.#incarnation = undefined;
    const fate: UnsyncedFate = kind === 'kill' ? 'all' : kind === 'power-torn' ? 'prefix' : 'none';
    const kept = this.disk.crash(this.#rng, fate);
    this.#backend = kind === 'kill' ? inc.memory.copy() : inc.memory.crash();
    return `m${this.id} crash(${kind}) #${inc.generation} applied=${inc.member.appliedIndex} durable=${this.disk.durable.lastIndex} unsyncedKept=${kept}`;
  }

  /** A fresh member's list is written once, durably, as the real bootstrap does. */
  async #loadMembership(backend: Backend): Promise<Membership> {
    const members = [];
    const removed: bigint[] = [];
    for await (const [, v] of backend.iterate(Bucket.Members)) members.push(decodeMember(v));
    for await (const [k] of backend.iterate(Bucket.MembersRemoved)) removed.push(k.readBigUInt64BE(0));
    if (members.length > 0) return Membership.restore(members, removed);
    const initial = this.config.join ?? this.config.voters.map((id) => ({ id, name: `m${id}`, peerURLs: [peerUrlOf(id)], clientURLs: [], isLearner: false }));
    const fresh = Membership.restore(
      initial.filter((m) => m.id !== this.id),
      [],
    );
    await backend.write(fresh.allOps(), { sync: true });
    return fresh;
  }
}
