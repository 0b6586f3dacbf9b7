/**
 * Configuration of a Raft node, its logger port and their validation.
 *
 * Time is counted in ticks: the application calls `tick()` at a fixed interval (100 ms in
 * kvstore), so heartbeatTicks 1 = 100 ms and electionTicks 10 = 1000 ms.
 */
import type { RaftStorage } from './storage.js';

/** Where the core reports noteworthy transitions. Must not throw. */
export interface RaftLogger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
}

export const SILENT_LOGGER: RaftLogger = { debug: () => {}, info: () => {}, warn: () => {} };

export interface RaftConfig {
  /** This node's id (non-zero). */
  readonly id: bigint;
  /**
   * Initial voters (including this node for a founding member). Used only when the storage
   * holds no membership (no snapshot); otherwise the snapshot's conf state wins.
   */
  readonly voters: readonly bigint[];
  /** Initial learners, same rule as `voters`. */
  readonly learners?: readonly bigint[];
  /** Election timeout in ticks; followers wait a random time in [electionTicks, 2*electionTicks). */
  readonly electionTicks: number;
  /** Ticks between leader heartbeats; must be < electionTicks. */
  readonly heartbeatTicks: number;
  /** Run a pre-vote round (no term bump) before a real election. */
  readonly preVote: boolean;
  /** A leader steps down when it has not heard from a quorum within an election timeout; followers ignore votes inside that lease. */
  readonly checkQuorum: boolean;
  /** Max MsgApp messages in flight to one follower in Replicate state (>= 1). */
  readonly maxInflight: number;
  /** Max entry bytes per MsgApp (see `entryBytes`); one entry is always sent even if larger. */
  readonly maxSizePerMsg: number;
  /** Max entry bytes per Ready's committedEntries (default: unlimited). */
  readonly maxCommittedSizePerReady?: number;
  /** Returns a number in [0, 1); the only source of randomness (election timeouts). */
  readonly rng: () => number;
  readonly storage: RaftStorage;
  /**
   * Index already applied by the application (restart); default: the storage's first index - 1.
   * Committed entries up to it are not handed out again, so their conf changes never reach the
   * core: membership must then already be as of this index (in the storage's snapshot conf
   * state, or in `voters`/`learners` when there is no snapshot). Otherwise start at the
   * snapshot index and re-apply the conf changes of the entries handed out again.
   */
  readonly applied?: number;
  readonly logger?: RaftLogger;
}

/** Returns a description of what is wrong with the config, or undefined when it is valid. */
export function validateConfig(c: RaftConfig): string | undefined {
  if (c.id === 0n) return 'id must not be 0';
  if (c.heartbeatTicks < 1) return 'heartbeatTicks must be at least 1';
  if (c.electionTicks <= c.heartbeatTicks) return 'electionTicks must be greater than heartbeatTicks';
  if (!Number.isInteger(c.maxInflight) || c.maxInflight < 1) return 'maxInflight must be a positive integer';
  if (c.maxSizePerMsg < 0) return 'maxSizePerMsg must not be negative';
  const learners = new Set(c.learners ?? []);
  for (const v of c.voters) if (learners.has(v)) return `node ${v} is both voter and learner`;
  return undefined;
}
