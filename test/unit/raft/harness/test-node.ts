/** One node of the test network: the Raft node, its storage, and the application state it applied. */
import type { ConfState } from '../../../../server/raft/log-types.js';
import { createRaftNode, type MemoryRaftStorage, type RaftConfig, type RaftNode, type ReadState } from '../../../../server/raft/index.js';

/** One applied entry as the application saw it. */
export interface Applied {
  readonly index: number;
  readonly term: number;
  readonly kind: 'normal' | 'conf';
  readonly data: string;
}

/** What a snapshot of the test application holds (JSON, bigint as "<n>n"). */
interface AppState {
  applied: Applied[];
  confHistory: { index: number; cs: ConfState }[];
}

export class TestNode {
  readonly id: bigint;
  readonly storage: MemoryRaftStorage;
  readonly config: RaftConfig;
  node: RaftNode;
  /** Everything applied, in order (restored wholesale from snapshots). */
  applied: Applied[] = [];
  confHistory: { index: number; cs: ConfState }[] = [];
  readStates: ReadState[] = [];

  constructor(config: RaftConfig, storage: MemoryRaftStorage) {
    this.id = config.id;
    this.storage = storage;
    this.config = config;
    this.node = createRaftNode(config);
    this.confHistory.push({ index: 0, cs: { voters: [...config.voters], learners: [...(config.learners ?? [])] } });
  }

  appliedIndex(): number {
    return this.applied[this.applied.length - 1]?.index ?? 0;
  }

  /** Membership as of applied index `i`. */
  confStateAt(i: number): ConfState {
    let cs = this.confHistory[0]!.cs;
    for (const h of this.confHistory) if (h.index <= i) cs = h.cs;
    return cs;
  }

  snapshotData(): Buffer {
    const state: AppState = { applied: this.applied, confHistory: this.confHistory };
    return Buffer.from(JSON.stringify(state, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
  }

  restoreData(data: Buffer): void {
    const state = JSON.parse(data.toString('utf8'), (_k, v: unknown) =>
      typeof v === 'string' && /^\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v,
    ) as AppState;
    this.applied = state.applied;
    this.confHistory = state.confHistory;
  }
}

