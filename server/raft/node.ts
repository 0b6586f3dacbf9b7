/**
 * createRaftNode: the public face of the Raft core. Synchronous and deterministic: no I/O, no
 * clock, no timers, no randomness except the injected rng. Exactly one caller drives it:
 *
 *   loop: feed inputs (tick / step / propose / readIndex / ...) → while hasReady():
 *         rd = ready(); persist, send, apply (README.md) → advance(rd)
 *
 * Inputs return errors as values (RaftResult). Broken invariants (a Ready advanced out of
 * order, a committed entry contradicted by storage) throw.
 */
import { EntryType, type ConfState } from './log-types.js';
import { applyConfChange } from './apply-conf-change.js';
import { encodeConfChange, type ConfChange } from './conf-change.js';
import { validateConfig, type RaftConfig } from './config.js';
import { fail, RaftErrorKind, type RaftResult } from './errors.js';
import { isLocalMessage, isResponseMessage, message, messageFrom, MessageType, type Message } from './message.js';
import { NONE } from './raft-state.js';
import { RaftLog } from './raft-log.js';
import { Raft } from './raft.js';
import { ReadyCycle, type Ready } from './ready.js';
import { statusOf, type Status } from './status.js';
import { step } from './step.js';
import { tick } from './tick.js';

export interface RaftNode {
  /** Advances logical time by one tick. */
  tick(): void;
  /** Starts an election now (as if the election timeout elapsed). */
  campaign(): RaftResult<void>;
  /** Proposes an ENTRY_NORMAL entry. Error ProposalDropped: no leader, transfer in progress, removed. */
  propose(data: Buffer): RaftResult<void>;
  /** Proposes a membership change. Error ProposalDropped also when another change is not applied yet. */
  proposeConfChange(cc: ConfChange): RaftResult<void>;
  /** A message from a peer. Errors: StepLocalMessage, StepPeerNotFound (a response from an unknown member). */
  step(m: Message): RaftResult<void>;
  /**
   * Requests a linearizable read; `ctx` must be unique among pending reads. Completes as a
   * ReadState with the same ctx in a later Ready. Error ProposalDropped when no leader is known.
   */
  readIndex(ctx: Buffer): RaftResult<void>;
  /** Asks the leader to hand leadership to `transferee` (forwarded when this node is a follower). */
  transferLeader(transferee: bigint): void;
  /** The transport could not reach `id`: a leader stops streaming to it and probes. */
  reportUnreachable(id: bigint): void;
  /** Outcome of sending a snapshot to `id`. */
  reportSnapshot(id: bigint, succeeded: boolean): void;
  /** Applies a committed conf change (call when applying its entry); returns the new membership. */
  applyConfChange(cc: ConfChange): ConfState;
  hasReady(): boolean;
  /** The next batch of work. Throws if the previous Ready was not advanced. */
  ready(): Ready;
  /** Acknowledges that `rd` was fully handled (persisted, sent, applied). */
  advance(rd: Ready): void;
  /**
   * While a leader's Ready with `sendBeforePersist` is outstanding: the messages produced since
   * (e.g. the new commit index two followers' acks made), to send at once; empty otherwise.
   */
  takeEarlyMessages(): readonly Message[];
  status(): Status;
}

/** Creates a node. Throws on an invalid config or when storage contradicts its hard state. */
export function createRaftNode(config: RaftConfig): RaftNode {
  const problem = validateConfig(config);
  if (problem !== undefined) throw new Error(`invalid raft config: ${problem}`);
  const log = new RaftLog(config.storage);
  const r = new Raft(config, log);
  const { hardState, confState } = config.storage.initialState();
  const fromStorage = confState.voters.length > 0 || confState.learners.length > 0;
  const next = log.lastIndex() + 1;
  for (const id of fromStorage ? confState.voters : config.voters) r.tracker.addMember(id, false, next);
  for (const id of fromStorage ? confState.learners : (config.learners ?? [])) r.tracker.addMember(id, true, next);
  if (hardState.commit < log.committed || hardState.commit > log.lastIndex()) {
    throw new Error(`hard state commit ${hardState.commit} outside the stored log [${log.committed}, ${log.lastIndex()}]`);
  }
  log.commitTo(hardState.commit);
  r.term = hardState.term;
  r.vote = hardState.vote;
  if (config.applied !== undefined && config.applied > log.applied) log.appliedTo(config.applied);
  r.becomeFollower(r.term, NONE);
  const cycle = new ReadyCycle(r, config.maxCommittedSizePerReady ?? Number.MAX_SAFE_INTEGER);

  const local = (fields: Partial<Message> & Pick<Message, 'type'>): RaftResult<void> => step(r, fields.from === undefined ? messageFrom(fields, r.id, fields.term ?? 0) : message(fields));

  return {
    tick: () => tick(r),
    campaign: () => local({ type: MessageType.MsgHup }),
    propose: (data) => local({ type: MessageType.MsgProp, entries: [{ term: 0, index: 0, type: EntryType.ENTRY_NORMAL, data }] }),
    proposeConfChange: (cc) =>
      local({
        type: MessageType.MsgProp,
        entries: [{ term: 0, index: 0, type: EntryType.ENTRY_CONF_CHANGE, data: encodeConfChange(cc) }],
      }),
    step(m) {
      if (isLocalMessage(m.type)) return fail(RaftErrorKind.StepLocalMessage, m.type);
      if (isResponseMessage(m.type) && !r.tracker.progress.has(m.from)) return fail(RaftErrorKind.StepPeerNotFound, m.from.toString(16));
      return step(r, m);
    },
    readIndex(ctx) {
      if (r.lead === NONE) return fail(RaftErrorKind.ProposalDropped, 'no leader');
      return local({ type: MessageType.MsgReadIndex, context: ctx });
    },
    transferLeader: (transferee) => void local({ type: MessageType.MsgTransferLeader, from: transferee, to: r.id }),
    reportUnreachable: (id) => void step(r, message({ type: MessageType.MsgUnreachable, from: id, to: r.id })),
    reportSnapshot: (id, succeeded) => void step(r, message({ type: MessageType.MsgSnapStatus, from: id, to: r.id, reject: !succeeded })),
    applyConfChange: (cc) => applyConfChange(r, cc),
    hasReady: () => cycle.hasReady(r),
    ready: () => cycle.ready(r),
    advance: (rd) => cycle.advance(r, rd),
    takeEarlyMessages: () => cycle.takeEarlyMessages(r),
    status: () => statusOf(r),
  };
}

