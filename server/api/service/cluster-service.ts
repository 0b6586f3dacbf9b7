/**
 * Cluster RPCs. Membership changes go through the log as conf changes (add, add learner,
 * promote, remove) or as ordinary requests (peer-URL updates), with the reference server's
 * refusals, checked in its order:
 * - invalid peer URLs; a peer URL already in use; an id collision;
 * - at most one learner; a learner is promoted only once it has caught up (≥ 90 % of the
 *   leader's log);
 * - strict reconfiguration (unless `strictReconfigCheck` is false; membership/reconfig-check.ts):
 *   enough started members for the new quorum, and a local member connected to all voters
 *   (add) or to enough of them (remove) for the last 5 s, else `unhealthy cluster`; each
 *   refusal logs the reference server's warning.
 * Responses list the members sorted by id; headers carry no revision.
 */
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { formatId, memberIdFor } from '../../config/identity.js';
import { err, ok, type Result } from '../../errors/domain-error.js';
import type { MemberRecord } from '../../membership/membership.js';
import { validPeerUrls } from '../../membership/peer-urls.js';
import { mayAddMember, mayRemoveMember, type ReconfigVerdict, type ReconfigView } from '../../membership/reconfig-check.js';
import { ConfChangeType } from '../../raft/index.js';
import type { ClusterService } from '../services.js';
import type { ServiceContext } from './context.js';

const toPb = (m: MemberRecord): pb.Member => ({
  ID: m.id,
  name: m.name,
  peerURLs: [...m.peerURLs],
  clientURLs: [...m.clientURLs],
  isLearner: m.isLearner,
});

/** How the reference server prints a member in its warnings (Go's `%+v` of its Member). */
const describe = (m: pb.Member): string =>
  `{ID:${formatId(m.ID)} RaftAttributes:{PeerURLs:[${m.peerURLs.join(' ')}] IsLearner:${m.isLearner}} Attributes:{Name:${m.name} ClientURLs:[${m.clientURLs.join(' ')}]}}`;

export function createClusterService(ctx: ServiceContext): ClusterService {
  const { member, membership } = ctx;
  const header = (): pb.ResponseHeader => member.header(0n);
  const members = (): pb.Member[] => membership.list().map(toPb);
  const strict = ctx.strictReconfigCheck ?? true;
  const view = (): ReconfigView => ({
    self: member.memberId,
    voters: membership.voters().map((m) => ({ id: m.id, started: m.name !== '' })),
    activeSince: ctx.peerActiveSince,
    now: ctx.now(),
  });
  /** Logs a refusal as the reference server does; null when allowed. */
  const refusal = (verdict: ReconfigVerdict, op: 'add' | 'remove', subject: string): Result<never> | null => {
    if (verdict.kind === 'Ok') return null;
    const local = { 'local-member-id': formatId(member.memberId) };
    if (verdict.kind === 'NotEnoughStartedMembers') {
      const key = op === 'add' ? 'requested-member-add' : 'requested-member-remove-id';
      const error = 'etcdserver: re-configuration failed due to not enough started members';
      ctx.log.warn({ ...local, [key]: subject, error }, `rejecting member ${op} request; not enough healthy members`);
      return err('NotEnoughStartedMembers');
    }
    const fields = op === 'add' ? { 'requested-member-add': subject } : { 'requested-member-remove': subject, 'active-peers': verdict.activePeers };
    ctx.log.warn(
      { ...local, ...fields, error: 'etcdserver: unhealthy cluster' },
      `rejecting member ${op} request; local member has not been connected to all peers, reconfigure breaks active quorum`,
    );
    return err('Unhealthy');
  };

  return {
    async memberList() {
      return ok({ header: header(), members: members() });
    },

    async memberAdd(req): Promise<Result<pb.MemberAddResponse>> {
      if (!validPeerUrls(req.peerURLs)) return err('InvalidPeerUrls');
      if (membership.byPeerUrl(req.peerURLs)) return err('PeerUrlExists');
      if (req.isLearner && membership.learners().length >= 1) return err('TooManyLearners');
      const id = memberIdFor(req.peerURLs, ctx.clusterToken, ctx.now());
      const added: pb.Member = { ID: id, name: '', peerURLs: [...req.peerURLs], clientURLs: [], isLearner: req.isLearner };
      if (strict) {
        const refused = refusal(mayAddMember(view(), req.isLearner), 'add', describe(added));
        if (refused) return refused;
      }
      if (membership.get(id) || membership.isRemoved(id)) return err('MemberIdExists');
      const res = await member.proposeConfChange(req.isLearner ? ConfChangeType.AddLearnerNode : ConfChangeType.AddNode, id, added);
      if (!res.ok) return res;
      return ok({ header: header(), member: added, members: members() });
    },

    async memberRemove(req): Promise<Result<pb.MemberRemoveResponse>> {
      const m = membership.get(req.ID);
      if (!m) return err('MemberNotFound');
      if (strict) {
        const refused = refusal(mayRemoveMember(view(), m), 'remove', formatId(m.id));
        if (refused) return refused;
      }
      const res = await member.proposeConfChange(ConfChangeType.RemoveNode, m.id, toPb(m));
      if (!res.ok) return res;
      return ok({ header: header(), members: members() });
    },

    async memberUpdate(req): Promise<Result<pb.MemberUpdateResponse>> {
      if (!membership.get(req.ID)) return err('MemberNotFound');
      if (!validPeerUrls(req.peerURLs)) return err('InvalidPeerUrls');
      const res = await member.propose({ $case: 'memberUpdate', value: req });
      if (!res.ok) return res;
      return ok({ header: header(), members: members() });
    },

    async memberPromote(req): Promise<Result<pb.MemberPromoteResponse>> {
      const m = membership.get(req.ID);
      if (!m) return err('MemberNotFound');
      if (!m.isLearner) return err('NotALearner');
      if (!member.isLeader) {
        // Only the leader knows whether the learner caught up: it decides and proposes.
        const forwarded = await ctx.leader.promote(m.id);
        if (!forwarded.ok) return forwarded;
        const caughtUp = await member.readBarrier();
        if (!caughtUp.ok) return caughtUp;
        return ok({ header: header(), members: members() });
      }
      const progress = member.progress();
      const leaderMatch = progress.get(member.memberId) ?? member.committedIndex;
      const learnerMatch = progress.get(m.id) ?? 0;
      if (learnerMatch === 0 || learnerMatch * 10 < leaderMatch * 9) return err('LearnerNotReady');
      const res = await member.proposeConfChange(ConfChangeType.AddNode, m.id, { ...toPb(m), isLearner: false });
      if (!res.ok) return res;
      return ok({ header: header(), members: members() });
    },
  };
}
