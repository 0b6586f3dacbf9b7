/**
 * The Raft state machine's state and its role transitions.
 *
 * One instance per node, owned by one caller (no concurrency). Roles are swapped step and tick
 * functions: `becomeFollower/PreCandidate/Candidate/Leader` install them. Everything the node
 * wants to send is queued in `msgs`; reads that completed are queued in `readStates`; both are
 * drained by the Ready cycle (ready.ts).
 *
 * Invariants: `vote` is only set within `term`; a Leader's `lead` is its own id; the leader's
 * own Progress.match only counts entries the application has persisted (see advance).
 */
import { EntryType, type Entry } from './log-types.js';
import { SILENT_LOGGER, type RaftConfig, type RaftLogger } from './config.js';
import type { RaftResult } from './errors.js';
import { messageFrom, MessageType, type Message } from './message.js';
import { hex, NONE, RaftState } from './raft-state.js';
import { RaftLog } from './raft-log.js';
import { ReadIndexQueue, type ReadState } from './read-index.js';
import { stepCandidate } from './step-candidate.js';
import { stepFollower } from './step-follower.js';
import { stepLeader } from './step-leader.js';
import { ProgressTracker } from './tracker.js';

export type StepFn = (r: Raft, m: Message) => RaftResult<void>;

export class Raft {
  readonly id: bigint;
  term = 0;
  vote = NONE;
  lead = NONE;
  state: RaftState = RaftState.Follower;
  readonly log: RaftLog;
  readonly tracker: ProgressTracker;
  msgs: Message[] = [];
  readStates: ReadState[] = [];

  electionElapsed = 0;
  heartbeatElapsed = 0;
  randomizedElectionTimeout = 0;
  readonly electionTicks: number;
  readonly heartbeatTicks: number;
  readonly preVote: boolean;
  readonly checkQuorum: boolean;
  readonly maxSizePerMsg: number;
  readonly maxInflight: number;

  /** Node a leadership transfer is handing over to, or NONE. */
  leadTransferee = NONE;
  /** Index of the latest conf change appended by this leader; a new one waits until it is applied. */
  pendingConfIndex = 0;
  readIndex = new ReadIndexQueue();
  /** ReadIndex requests waiting for this leader to commit an entry of its own term. */
  pendingReadIndexMessages: Message[] = [];
  /** Proposals held during a leadership transfer (held-proposals.ts); kept across role changes. */
  held: Message[] = [];
  /** Ticks since the oldest held proposal arrived. */
  heldTicks = 0;
  /** Entries of this node's own proposals dropped after being held; handed out in the next Ready. */
  droppedProposals: Entry[] = [];

  readonly rng: () => number;
  readonly logger: RaftLogger;
  stepFn: StepFn = stepFollower;
  /** Which tick function runs: followers and candidates count towards an election, leaders towards heartbeats. */
  tickKind: 'election' | 'heartbeat' = 'election';

  constructor(c: RaftConfig, log: RaftLog) {
    this.id = c.id;
    this.log = log;
    this.tracker = new ProgressTracker(c.maxInflight);
    this.electionTicks = c.electionTicks;
    this.heartbeatTicks = c.heartbeatTicks;
    this.preVote = c.preVote;
    this.checkQuorum = c.checkQuorum;
    this.maxSizePerMsg = c.maxSizePerMsg;
    this.maxInflight = c.maxInflight;
    this.rng = c.rng;
    this.logger = c.logger ?? SILENT_LOGGER;
  }

  /**
   * Queues a message to a peer. `from` is this node; `term` is the current term except for
   * forwarded proposals/read requests (0) and for votes, which carry their own term.
   */
  send(fields: Partial<Message> & Pick<Message, 'type' | 'to'>): void {
    const t = fields.type;
    const carriesOwnTerm =
      t === MessageType.MsgVote || t === MessageType.MsgPreVote || t === MessageType.MsgVoteResp || t === MessageType.MsgPreVoteResp;
    const termless = t === MessageType.MsgProp || t === MessageType.MsgReadIndex;
    if (carriesOwnTerm && (fields.term === undefined || fields.term === 0)) throw new Error(`${t} needs a term`);
    const term = carriesOwnTerm ? fields.term! : termless ? 0 : this.term;
    this.msgs.push(messageFrom(fields, this.id, term));
  }

  /** Voters may campaign; learners and removed nodes may not. */
  promotable(): boolean {
    return this.tracker.isVoter(this.id);
  }

  pastElectionTimeout(): boolean {
    return this.electionElapsed >= this.randomizedElectionTimeout;
  }

  resetRandomizedElectionTimeout(): void {
    const r = this.rng();
    if (!(r >= 0 && r < 1)) throw new Error(`rng returned ${r}, outside [0, 1)`);
    this.randomizedElectionTimeout = this.electionTicks + Math.floor(r * this.electionTicks);
  }

  /** Clears per-term state; a new term also clears the vote. */
  reset(term: number): void {
    if (this.term !== term) {
      this.term = term;
      this.vote = NONE;
    }
    this.lead = NONE;
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.resetRandomizedElectionTimeout();
    this.abortLeaderTransfer();
    this.tracker.resetVotes();
    const last = this.log.lastIndex();
    for (const id of this.tracker.ids()) {
      const pr = this.tracker.progress.get(id)!;
      pr.becomeProbe();
      pr.match = 0;
      pr.next = last + 1;
      pr.recentActive = false;
      if (id === this.id) pr.match = this.log.lastStableIndex();
    }
    this.pendingConfIndex = 0;
    this.readIndex = new ReadIndexQueue();
    this.pendingReadIndexMessages = [];
  }

  becomeFollower(term: number, lead: bigint): void {
    this.stepFn = stepFollower;
    this.tickKind = 'election';
    this.reset(term);
    this.lead = lead;
    this.state = RaftState.Follower;
    this.logger.info(`${hex(this.id)} became follower at term ${this.term}`);
  }

  becomePreCandidate(): void {
    if (this.state === RaftState.Leader) throw new Error('leader cannot become pre-candidate');
    // Term and vote stay: a pre-election must not disturb the cluster.
    this.stepFn = stepCandidate;
    this.tickKind = 'election';
    this.tracker.resetVotes();
    this.lead = NONE;
    this.state = RaftState.PreCandidate;
    this.logger.info(`${hex(this.id)} became pre-candidate at term ${this.term}`);
  }

  becomeCandidate(): void {
    if (this.state === RaftState.Leader) throw new Error('leader cannot become candidate');
    this.stepFn = stepCandidate;
    this.tickKind = 'election';
    this.reset(this.term + 1);
    this.vote = this.id;
    this.state = RaftState.Candidate;
    this.logger.info(`${hex(this.id)} became candidate at term ${this.term}`);
  }

  becomeLeader(): void {
    if (this.state === RaftState.Follower) throw new Error('follower cannot become leader');
    this.stepFn = stepLeader;
    this.tickKind = 'heartbeat';
    this.reset(this.term);
    this.lead = this.id;
    this.state = RaftState.Leader;
    const self = this.tracker.progress.get(this.id);
    if (self !== undefined) {
      self.becomeReplicate();
      self.recentActive = true;
    }
    // Entries from earlier terms may hold a conf change not yet applied: wait for it.
    this.pendingConfIndex = this.log.lastIndex();
    // The no-op of the new term: committing it commits everything before it (§5.4.2, §8).
    this.appendEntries([{ term: 0, index: 0, type: EntryType.ENTRY_NORMAL, data: Buffer.alloc(0) }]);
    this.logger.info(`${hex(this.id)} became leader at term ${this.term}`);
  }

  /** Leader: stamps term and index on `ents` and appends them to the (unstable) log. */
  appendEntries(ents: readonly Entry[]): void {
    let i = this.log.lastIndex();
    const stamped = ents.map((e) => ({ ...e, term: this.term, index: ++i }));
    this.log.append(stamped);
  }

  abortLeaderTransfer(): void {
    this.leadTransferee = NONE;
  }

  /** Leader: whether the entry at the commit index is of the current term. */
  committedEntryInCurrentTerm(): boolean {
    return this.log.termOrZero(this.log.committed) === this.term;
  }
}
