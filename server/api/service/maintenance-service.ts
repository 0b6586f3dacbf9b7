/**
 * Maintenance RPCs: status, alarms, hashes, defragmentation, snapshots, leader moves.
 * Defragment, MoveLeader and Snapshot responses carry no header (as the reference does).
 */
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { err, ok, type Result } from '../../errors/domain-error.js';
import { streamSnapshot } from '../../snapshot/stream.js';
import { startImage, type StreamedSnapshot } from '../../snapshot/streamed-snapshot.js';
import type { MaintenanceService } from '../services.js';
import type { ServiceContext } from './context.js';

const ALARM_GET = 0;
const ALARM_NAMES = ['NONE', 'NOSPACE', 'CORRUPT'] as const;

export function createMaintenanceService(ctx: ServiceContext): MaintenanceService {
  const { member, store } = ctx;
  /** The image of everything applied so far (flushed first, then pinned with its record sizes). */
  const startSnapshot = (): Promise<StreamedSnapshot> => startImage({ store, backend: ctx.backend, flush: () => member.flush() }, { log: ctx.log });
  return {
    async alarm(req): Promise<Result<pb.AlarmResponse>> {
      // Alarm responses carry no header (as the reference server answers).
      if (req.action === ALARM_GET) return ok({ header: undefined, alarms: ctx.alarms.list(req.alarm) });
      const res = await member.propose({ $case: 'alarm', value: req });
      if (!res.ok) return res;
      return ok({ ...(res.value.response as pb.AlarmResponse), header: undefined });
    },

    async status(): Promise<Result<pb.StatusResponse>> {
      const errors: string[] = [];
      if (member.leaderId === 0n) errors.push('etcdserver: no leader');
      for (const a of ctx.alarms.list()) errors.push(`memberID:${a.memberID} alarm:${ALARM_NAMES[a.alarm] ?? a.alarm} `);
      return ok({
        header: member.header(store.currentRevision),
        version: ctx.serverVersion,
        dbSize: BigInt(ctx.dbSize()),
        leader: member.leaderId,
        raftIndex: BigInt(member.committedIndex),
        raftTerm: BigInt(member.term),
        raftAppliedIndex: BigInt(member.appliedIndex),
        errors,
        dbSizeInUse: BigInt(ctx.dbSizeInUse()),
        isLearner: ctx.membership.get(member.memberId)?.isLearner ?? false,
      });
    },

    async defragment(): Promise<Result<pb.DefragmentResponse>> {
      await member.flush();
      await ctx.backend.defragment();
      // The reported size shrinks to what is in use, once the compactions asked so far are done.
      await store.shrinkToFit();
      return ok({ header: undefined });
    },

    async hash(): Promise<Result<pb.HashResponse>> {
      await member.flush();
      return ok({ header: member.header(store.currentRevision), hash: await store.hash() });
    },

    async hashKV(req): Promise<Result<pb.HashKVResponse>> {
      await member.flush();
      const res = await store.hashKV(req.revision);
      if (!res.ok) return res;
      return ok({ header: member.header(res.value.revision), hash: res.value.hash, compactRevision: res.value.compactRevision });
    },

    snapshot(): AsyncIterable<pb.SnapshotResponse> {
      return streamSnapshot(() => startSnapshot());
    },

    snapshotImage() {
      return startSnapshot();
    },

    async moveLeader(req): Promise<Result<pb.MoveLeaderResponse>> {
      if (!member.isLeader) return err('NotLeader');
      const target = ctx.membership.get(req.targetID);
      if (!target || target.isLearner) return err('BadLeaderTransferee');
      const res = await member.transferLeadership(target.id);
      return res.ok ? ok({ header: undefined }) : res;
    },
  };
}
