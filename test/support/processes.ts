/**
 * The black-box test harness in one import: members (kvstore, real etcd), etcdctl, masks,
 * temp dirs and cleanup. Importing it registers a top-level `after` hook that kills every
 * process the test file started and removes its temp dirs (see registry.ts).
 */
export { initialClusterOf, nextLoopbackHost, reserveAddress, freePorts, type MemberAddress } from './addresses.js';
export { ctlFor, type BoundCtl } from './ctl-for.js';
export {
  agreedLeader, endpointHealth, endpointStatus, memberList, parseCtlJson, waitForLeader,
  type EndpointHealth, type EndpointStatus, type MemberEntry, type Roles,
} from './cluster-view.js';
export { etcdctl, spawnEtcdctl, CtlProcess, type CtlOptions, type CtlResult } from './etcdctl.js';
export { errorLine, loggedGrpcError, mask, maskResult, type MaskedResult, type MaskOptions } from './mask.js';
export { eventually, GENEROUS_MS } from './eventually.js';
export { openKv, put, readPrefix, type StoredValue } from './kv-client.js';
export { differentialSuite, diffSubject, transcript, type DiffCase, type DiffStep } from './differential.js';
export { etcdVersion, serverKinds, startCluster, startEtcd, startKvstore, startMember, type ClusterOptions, type StartOptions } from './members.js';
export { ETCD_BIN, ETCDCTL_BIN, KVSTORE_MAIN } from './paths.js';
export { makeTempDir, stopAll } from './registry.js';
export { unmatchedAcks, WriteLoad, type AckedPut, type FailedPut, type WriteLoadOptions } from './write-load.js';
export type { Member, ServerKind } from './server-process.js';
