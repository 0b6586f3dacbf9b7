/**
 * Lease RPCs. Grant and revoke go through the log (ids are chosen here, before proposing,
 * so every member applies the same id); keep-alive and time-to-live are answered by the
 * leader's lessor directly (renewals are not replicated).
 */
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { err, ok, type Result } from '../../errors/domain-error.js';
import type { LeaseService } from '../services.js';
import type { ServiceContext } from './context.js';
import { proposeAndFill } from './propose.js';
import { quotaExceeded } from './quota.js';

/** Largest TTL a lease may be granted with, in seconds. */
export const MAX_LEASE_TTL = 9_000_000_000n;

export function createLeaseService(ctx: ServiceContext): LeaseService {
  const { member, store } = ctx;
  return {
    async leaseGrant(req): Promise<Result<pb.LeaseGrantResponse>> {
      if (req.TTL > MAX_LEASE_TTL) return err('LeaseTTLTooLarge');
      if (await quotaExceeded(ctx, 0)) return err('NoSpace');
      const ID = req.ID === 0n ? ctx.newLeaseId() : req.ID;
      return proposeAndFill<pb.LeaseGrantResponse>(ctx, { $case: 'leaseGrant', value: { ID, TTL: req.TTL } });
    },

    leaseRevoke(req): Promise<Result<pb.LeaseRevokeResponse>> {
      return proposeAndFill<pb.LeaseRevokeResponse>(ctx, { $case: 'leaseRevoke', value: req });
    },

    async keepAlive(req): Promise<Result<pb.LeaseKeepAliveResponse>> {
      if (member.leaderId === 0n) return err('NoLeader');
      if (!member.isLeader) {
        const res = await ctx.leader.keepAlive(req);
        return res.ok ? ok({ ...res.value, header: member.header(store.currentRevision) }) : res;
      }
      const TTL = ctx.leases.renew(req.ID, ctx.now());
      return ok({ header: member.header(store.currentRevision), ID: req.ID, TTL });
    },

    async leaseTimeToLive(req): Promise<Result<pb.LeaseTimeToLiveResponse>> {
      if (member.leaderId !== 0n && !member.isLeader) {
        const res = await ctx.leader.timeToLive(req);
        return res.ok ? ok({ ...res.value, header: member.header(store.currentRevision) }) : res;
      }
      const t = ctx.leases.timeToLive(req.ID, ctx.now());
      const header = member.header(store.currentRevision);
      if (t === undefined) return ok({ header, ID: req.ID, TTL: -1n, grantedTTL: 0n, keys: [] });
      return ok({ header, ID: req.ID, TTL: t.ttl, grantedTTL: t.grantedTTL, keys: req.keys ? [...t.keys] : [] });
    },

    async leaseLeases(): Promise<Result<pb.LeaseLeasesResponse>> {
      return ok({ header: member.header(store.currentRevision), leases: ctx.leases.leases().map((ID) => ({ ID })) });
    },
  };
}
