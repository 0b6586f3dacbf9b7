/**
 * Public surface of server/config: loading the configuration, its types, member/cluster IDs
 * and the bootstrap checks. Other modules import from here.
 */
export { loadConfig } from './load-config.js';
export type {
  AutoCompaction,
  ConfigOutcome,
  InitialClusterMember,
  ServerConfig,
  TransportSecurity,
} from './types.js';
export { ClusterState, LogLevel, LoggerKind } from './types.js';
export { clusterIdFor, formatId, memberIdFor, parseId } from './identity.js';
export { initialClusterId, initialMembers, verifyBootstrap, type InitialMember } from './bootstrap.js';
export { envName } from './flag-table.js';
export { helpText } from './help.js';
