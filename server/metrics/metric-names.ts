/**
 * Names of the member metrics (ETCD-FACTS §8.1–8.3, auth included, with `etcd_` → `kvstore_`), as one table
 * so a per-version profile can rename or drop them (SPEC "Metric renames": 3.5 drops the
 * `kvstore_debugging_mvcc_{db_total_size_in_bytes,put,delete,txn}_total` names).
 *
 * Contract: a `null` name means "not exposed" — the handle still works, its values just do not
 * appear in the registry. Handles are keyed by role, never by name, so renames need no code
 * change elsewhere.
 */
export const MEMBER_METRIC_NAMES = {
  // server (§8.1)
  hasLeader: 'kvstore_server_has_leader',
  isLeader: 'kvstore_server_is_leader',
  isLearner: 'kvstore_server_is_learner',
  leaderChangesSeen: 'kvstore_server_leader_changes_seen_total',
  proposalsCommitted: 'kvstore_server_proposals_committed_total',
  proposalsApplied: 'kvstore_server_proposals_applied_total',
  proposalsPending: 'kvstore_server_proposals_pending',
  proposalsFailed: 'kvstore_server_proposals_failed_total',
  serverVersion: 'kvstore_server_version',
  clusterVersion: 'kvstore_cluster_version',
  serverId: 'kvstore_server_id',
  quotaBackendBytes: 'kvstore_server_quota_backend_bytes',
  healthSuccess: 'kvstore_server_health_success',
  healthFailures: 'kvstore_server_health_failures',
  slowApply: 'kvstore_server_slow_apply_total',
  leaseExpired: 'kvstore_debugging_server_lease_expired_total',
  // disk / WAL / snapshot (§8.2)
  walFsyncDuration: 'kvstore_disk_wal_fsync_duration_seconds',
  walWriteBytes: 'kvstore_disk_wal_write_bytes_total',
  backendCommitDuration: 'kvstore_disk_backend_commit_duration_seconds',
  backendSnapshotDuration: 'kvstore_disk_backend_snapshot_duration_seconds',
  backendDefragDuration: 'kvstore_disk_backend_defrag_duration_seconds',
  snapFsyncDuration: 'kvstore_snap_fsync_duration_seconds',
  snapDbFsyncDuration: 'kvstore_snap_db_fsync_duration_seconds',
  snapDbSaveDuration: 'kvstore_snap_db_save_total_duration_seconds',
  // mvcc (§8.3)
  dbTotalSize: 'kvstore_mvcc_db_total_size_in_bytes',
  dbTotalSizeInUse: 'kvstore_mvcc_db_total_size_in_use_in_bytes',
  put: 'kvstore_mvcc_put_total',
  delete: 'kvstore_mvcc_delete_total',
  txn: 'kvstore_mvcc_txn_total',
  range: 'kvstore_mvcc_range_total',
  debuggingDbTotalSize: 'kvstore_debugging_mvcc_db_total_size_in_bytes',
  debuggingPut: 'kvstore_debugging_mvcc_put_total',
  debuggingDelete: 'kvstore_debugging_mvcc_delete_total',
  debuggingTxn: 'kvstore_debugging_mvcc_txn_total',
  debuggingRange: 'kvstore_debugging_mvcc_range_total',
  keys: 'kvstore_debugging_mvcc_keys_total',
  watchStreams: 'kvstore_debugging_mvcc_watch_stream_total',
  watchers: 'kvstore_debugging_mvcc_watcher_total',
  slowWatchers: 'kvstore_debugging_mvcc_slow_watcher_total',
  events: 'kvstore_debugging_mvcc_events_total',
  pendingEvents: 'kvstore_debugging_mvcc_pending_events_total',
  currentRevision: 'kvstore_debugging_mvcc_current_revision',
  compactRevision: 'kvstore_debugging_mvcc_compact_revision',
  leaseGranted: 'kvstore_debugging_lease_granted_total',
  leaseRevoked: 'kvstore_debugging_lease_revoked_total',
  leaseRenewed: 'kvstore_debugging_lease_renewed_total',
  // auth (etcd's auth/metrics.go)
  authRevision: 'kvstore_debugging_auth_revision',
  // kvstore's own
  frontEndLocalReads: 'kvstore_frontend_local_reads_total',
  frontEndLocalWatchStreams: 'kvstore_frontend_local_watch_streams_total',
} as const;

export type MemberMetricRole = keyof typeof MEMBER_METRIC_NAMES;

/** A name per role; `null` = do not expose. */
export type MemberMetricNames = { readonly [K in MemberMetricRole]: string | null };

/**
 * The 3.5 set: SPEC "Metric renames" deprecates the five `debugging_mvcc` names completely
 * (db_total_size_in_bytes, put, delete, txn and range), so 3.5 shows only the promoted ones.
 */
export const MEMBER_METRIC_NAMES_35: MemberMetricNames = {
  ...MEMBER_METRIC_NAMES,
  debuggingDbTotalSize: null,
  debuggingPut: null,
  debuggingDelete: null,
  debuggingTxn: null,
  debuggingRange: null,
};
