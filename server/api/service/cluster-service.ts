/**
 * Cluster RPCs. Membership changes go through the log as conf changes (add, add learner,
 * promote, remove) or as ordinary requests (peer-URL updates), with the reference server's
 * refusals, checked in its order:
 * - invalid peer URLs; a peer URL already in use; an id collision;
 * - at most one learner; a learner is promoted only once it has caught up (≥ 90 % of the
 *   leader's log);
 * - strict reconfiguration: a voter is added or removed only if enough members have started
 *   (published their attributes) for the new quorum.
 * Responses list the members sorted by id; headers carry no revision.
 */
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { memberIdFor } from '../../config/identity.js';
import { err, ok, type Result } from '../../errors/domain-error.js';
import type { MemberRecord } from '../../membership/membership.js';
import { validPeerUrls } from '../../membership/peer-urls.js';
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

const quorum = (voters: number): number => Math.floor(voters / 2) + 1;

export function createClusterService(ctx: ServiceContext): ClusterService {
  const { member, membership } = ctx;
  const header = (): pb.ResponseHeader => member.header(0n);
  const members = (): pb.Member[] => membership.list().map(toPb);
  const started = (exclude?: bigint): number => membership.voters().filter((m) => m.name !== '' && m.id !== exclude).length;

  return {
    async memberList() {
      return ok({ header: header(), members: members() });
    },

    async memberAdd(req): Promise<Result<pb.MemberAddResponse>> {
      if (!validPeerUrls(req.peerURLs)) return err('InvalidPeerUrls');
      if (membership.byPeerUrl(req.peerURLs)) return err('PeerUrlExists');
      if (req.isLearner && membership.learners().length >= 1) return err('TooManyLearners');
      if (!req.isLearner && started() < quorum(membership.voters().length + 1)) return err('NotEnoughStartedMembers');
      const id = memberIdFor(req.peerURLs, ctx.clusterToken, ctx.now());
      if (membership.get(id) || membership.isRemoved(id)) return err('MemberIdExists');
      const added: pb.Member = { ID: id, name: '', peerURLs: [...req.peerURLs], clientURLs: [], isLearner: req.isLearner };
      const res = await member.proposeConfChange(req.isLearner ? ConfChangeType.AddLearnerNode : ConfChangeType.AddNode, id, added);
      if (!res.ok) return res;
      return ok({ header: header(), member: added, members: members() });
    },

    async memberRemove(req): Promise<Result<pb.MemberRemoveResponse>> {
      const m = membership.get(req.ID);
      if (!m) return err('MemberNotFound');
      if (!m.isLearner && started(m.id) < quorum(membership.voters().length - 1)) return err('NotEnoughStartedMembers');
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
      const learnerMatch = progress.get(m.id) ?? 0n;
      if (learnerMatch === 0n || learnerMatch * 10n < leaderMatch * 9n) return err('LearnerNotReady');
      const res = await member.proposeConfChange(ConfChangeType.AddNode, m.id, { ...toPb(m), isLearner: false });
      if (!res.ok) return res;
      return ok({ header: header(), members: members() });
    },
  };
}
