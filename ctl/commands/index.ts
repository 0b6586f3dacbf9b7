/**
 * Every kvstorectl command, in etcdctl's order of importance.
 */
import type { CommandSpec } from '../cli/command-spec.js';
import { alarmDisarmCommand } from './alarm/disarm.js';
import { alarmListCommand } from './alarm/list.js';
import { checkPerfCommand } from './check/perf.js';
import { compactionCommand } from './compaction.js';
import { defragCommand } from './defrag.js';
import { delCommand } from './del.js';
import { endpointHashKVCommand } from './endpoint/hashkv.js';
import { endpointHealthCommand } from './endpoint/health.js';
import { endpointStatusCommand } from './endpoint/status.js';
import { electCommand } from './elect.js';
import { getCommand } from './get.js';
import { leaseGrantCommand } from './lease/grant.js';
import { leaseKeepAliveCommand } from './lease/keep-alive.js';
import { leaseListCommand } from './lease/list.js';
import { leaseRevokeCommand } from './lease/revoke.js';
import { leaseTimeToLiveCommand } from './lease/timetolive.js';
import { lockCommand } from './lock.js';
import { memberAddCommand } from './member/add.js';
import { memberListCommand } from './member/list.js';
import { memberPromoteCommand } from './member/promote.js';
import { memberRemoveCommand } from './member/remove.js';
import { memberUpdateCommand } from './member/update.js';
import { moveLeaderCommand } from './move-leader.js';
import { putCommand } from './put.js';
import { snapshotRestoreCommand } from './snapshot/restore.js';
import { snapshotSaveCommand } from './snapshot/save.js';
import { snapshotStatusCommand } from './snapshot/status.js';
import { txnCommand } from './txn.js';
import { versionCommand } from './version.js';
import { watchCommand } from './watch.js';
import { authDisableCommand } from './auth/disable.js';
import { authEnableCommand } from './auth/enable.js';
import { authStatusCommand } from './auth/status.js';
import { roleAddCommand } from './role/add.js';
import { roleDeleteCommand } from './role/delete.js';
import { roleGetCommand } from './role/get.js';
import { roleGrantPermissionCommand } from './role/grant-permission.js';
import { roleListCommand } from './role/list.js';
import { roleRevokePermissionCommand } from './role/revoke-permission.js';
import { userAddCommand } from './user/add.js';
import { userDeleteCommand } from './user/delete.js';
import { userGetCommand } from './user/get.js';
import { userGrantRoleCommand } from './user/grant-role.js';
import { userListCommand } from './user/list.js';
import { userPasswdCommand } from './user/passwd.js';
import { userRevokeRoleCommand } from './user/revoke-role.js';

export const COMMANDS: readonly CommandSpec[] = [
  putCommand,
  getCommand,
  delCommand,
  endpointHealthCommand,
  endpointStatusCommand,
  endpointHashKVCommand,
  memberListCommand,
  memberAddCommand,
  memberRemoveCommand,
  memberUpdateCommand,
  memberPromoteCommand,
  leaseGrantCommand,
  leaseRevokeCommand,
  leaseTimeToLiveCommand,
  leaseListCommand,
  leaseKeepAliveCommand,
  snapshotSaveCommand,
  snapshotStatusCommand,
  snapshotRestoreCommand,
  txnCommand,
  watchCommand,
  compactionCommand,
  alarmListCommand,
  alarmDisarmCommand,
  defragCommand,
  moveLeaderCommand,
  versionCommand,
  lockCommand,
  electCommand,
  checkPerfCommand,
  authEnableCommand,
  authDisableCommand,
  authStatusCommand,
  userAddCommand,
  userDeleteCommand,
  userGetCommand,
  userListCommand,
  userPasswdCommand,
  userGrantRoleCommand,
  userRevokeRoleCommand,
  roleAddCommand,
  roleDeleteCommand,
  roleGetCommand,
  roleListCommand,
  roleGrantPermissionCommand,
  roleRevokePermissionCommand,
];
