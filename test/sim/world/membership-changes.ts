/**
 * Membership changes during a simulated run, made as an operator does them through the
 * Cluster API (server/api/service/cluster-service.ts): a conf change proposed through the
 * leader's member — add a learner or a voter, promote a learner, remove a member.
 *
 * Lifecycle of a member: an added member is `pending` (created, not booted) until any
 * member has applied its addition, then it boots as a member joining a running cluster; a
 * removed member is `retired` as soon as any member applied its removal, and stops for good
 * a little later (as a process that notices its removal does). Only members neither
 * pending nor retired are active.
 */
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import type { MemberRecord } from '../../../server/membership/membership.js';
import { ConfChangeType, type ConfChange } from '../../../server/raft/index.js';
import { peerUrlOf } from './member-start.js';
import type { Prng } from './prng.js';
import type { SimNode } from './sim-node.js';

export interface MembershipWorld {
  leader(): SimNode | undefined;
  node(id: bigint): SimNode;
  nextId(): bigint;
  /** Creates (does not boot) a member that will join with `join` as its initial member list. */
  createNode(id: bigint, join: readonly MemberRecord[]): SimNode;
  restart(id: bigint): void;
  after(ms: number, what: string, fn: () => void): void;
  log(text: string): void;
  readonly rng: Prng;
}

const toPb = (m: MemberRecord, isLearner = m.isLearner): pb.Member => ({
  ID: m.id,
  name: m.name,
  peerURLs: [...m.peerURLs],
  clientURLs: [...m.clientURLs],
  isLearner,
});

export class MembershipChanges {
  readonly #w: MembershipWorld;
  readonly #pending = new Set<bigint>();
  readonly #retired = new Set<bigint>();
  #joined = false;

  constructor(w: MembershipWorld) {
    this.#w = w;
  }

  /** Neither waiting for its addition nor removed. */
  isActive(id: bigint): boolean {
    return !this.#pending.has(id) && !this.#retired.has(id);
  }

  /** Whether a member joined the running cluster. */
  get joined(): boolean {
    return this.#joined;
  }

  /** Proposes adding a new member started from the leader's member list; returns its id. */
  add(learner: boolean): bigint | undefined {
    const leader = this.#w.leader()?.running;
    if (!leader) return undefined;
    const id = this.#w.nextId();
    this.#w.createNode(id, leader.membership.list());
    this.#pending.add(id);
    const record: pb.Member = { ID: id, name: '', peerURLs: [peerUrlOf(id)], clientURLs: [], isLearner: learner };
    this.#w.log(`membership: m${leader.member.memberId} proposes adding m${id}${learner ? ' as a learner' : ''}`);
    void leader.member.proposeConfChange(learner ? ConfChangeType.AddLearnerNode : ConfChangeType.AddNode, id, record).then((r) => {
      this.#w.log(`membership: adding m${id}: ${r.ok ? 'applied' : r.error.kind}`);
    });
    return id;
  }

  /** Proposes promoting learner `id` to a voter. */
  promote(id: bigint): void {
    const leader = this.#w.leader()?.running;
    const m = leader?.membership.get(id);
    if (!leader || !m?.isLearner) return;
    this.#w.log(`membership: m${leader.member.memberId} proposes promoting m${id}`);
    void leader.member.proposeConfChange(ConfChangeType.AddNode, id, toPb(m, false));
  }

  /** Proposes removing member `id` (the leader itself included). */
  remove(id: bigint): void {
    const leader = this.#w.leader()?.running;
    const m = leader?.membership.get(id);
    if (!leader || !m) return;
    this.#w.log(`membership: m${leader.member.memberId} proposes removing m${id}`);
    void leader.member.proposeConfChange(ConfChangeType.RemoveNode, id, toPb(m));
  }

  /** Member `by` applied `cc`. */
  applied(by: bigint, cc: ConfChange): void {
    const id = cc.nodeId;
    if (cc.type === ConfChangeType.RemoveNode) {
      if (this.#retired.has(id)) return;
      this.#retired.add(id);
      this.#pending.delete(id);
      this.#w.after(this.#w.rng.between(0, 500), `retire m${id}`, () => {
        const node = this.#w.node(id);
        if (node.up) this.#w.log(node.crash('kill'));
        this.#w.log(`membership: m${id} removed (seen applied by m${by}) and stopped`);
      });
    } else if (this.#pending.delete(id)) {
      this.#joined = true;
      this.#w.log(`membership: m${id} added (seen applied by m${by}); starting it`);
      this.#w.restart(id);
    }
  }
}
