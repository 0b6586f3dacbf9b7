/**
 * What the service implementations share: the member actor, the stores it owns and the
 * member's settings. Built once by the member's composition root (server/main.ts).
 */
import type { AlarmSet } from '../../apply/alarms.js';
import type { Member } from '../../member/member.js';
import type { Membership } from '../../membership/membership.js';
import type { MvccStore } from '../../mvcc/types.js';
import type { SnapshotLog } from '../../snapshot/stream.js';
import type { Backend } from '../../storage/backend.js';
import type { LeaderForwarder } from './leader-forward.js';
import type { LeaseReader } from './lease-reader.js';

export interface ServiceCounters {
  readonly onRange?: () => void;
  readonly onPut?: () => void;
  readonly onDelete?: () => void;
  readonly onTxn?: () => void;
}

/** The member's logger as the services use it (pino's `info` / `warn` shape). */
export interface ServiceLog extends SnapshotLog {
  warn(fields: Readonly<Record<string, unknown>>, msg: string): void;
}

export interface ServiceContext {
  readonly member: Member;
  readonly store: MvccStore;
  readonly backend: Backend;
  readonly alarms: AlarmSet;
  readonly leases: LeaseReader;
  readonly serverVersion: string;
  readonly maxTxnOps: number;
  /** Effective backend quota in bytes. */
  readonly quotaBytes: number;
  /**
   * Backend size in bytes as etcd reports its file (MvccStore.size.allocated): what the quota
   * checks, Status reports as dbSize. Grows with every flush, falls at a defragmentation.
   */
  readonly dbSize: () => number;
  /** Bytes the live records occupy (MvccStore.size.inUse): Status's dbSizeInUse. */
  readonly dbSizeInUse: () => number;
  readonly now: () => number;
  readonly newLeaseId: () => bigint;
  readonly membership: Membership;
  /** Reaches the leader for requests only it answers (set once the peer transport runs). */
  readonly leader: LeaderForwarder;
  readonly clusterToken: string;
  readonly counters: ServiceCounters;
  /** `<data-dir>/member/snap`: where the Snapshot stream writes its temporary image. */
  readonly snapDir: string;
  /** The member's logger (the Snapshot stream logs etcd's three lines; refused reconfigurations warn). */
  readonly log: ServiceLog;
  /**
   * `--strict-reconfig-check`. Default true. False: member add / remove skip every quorum
   * check (started members and connectivity).
   */
  readonly strictReconfigCheck?: boolean;
  /**
   * The peer transport's view: Unix ms (the clock of `now`) since which the outbound
   * connection to peer `id` is up, undefined while down. Default absent: the strict check
   * does not look at connectivity (only at started members).
   */
  readonly peerActiveSince?: (id: bigint) => number | undefined;
}
