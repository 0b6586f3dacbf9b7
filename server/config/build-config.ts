/**
 * Values in effect → ServerConfig: derived defaults, cross-flag checks and warnings.
 * Error messages keep etcd's wording where etcd has one (timing checks).
 */
import { join } from 'node:path';
import type { VersionProfile } from '../version/profile.js';
import { apiVersionOf } from '../version/version.js';
import { resolveAutoCompaction } from './auto-compaction.js';
import { resolveClusterUrls } from './cluster-config.js';
import { DEFAULT_LEASE_CHECKPOINT_INTERVAL_MS } from './lease-checkpoint.js';
import { resolveLogging } from './logging-config.js';
import { checkSupport } from './support-warnings.js';
import { checkTls } from './tls-config.js';
import type { ClusterState, ServerConfig, TransportSecurity } from './types.js';
import type { Values } from './values.js';

export type BuildResult =
  | { readonly ok: true; readonly config: ServerConfig; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly message: string };

export interface BuildContext {
  readonly profile: VersionProfile;
  readonly serverVersion: string;
  /** The YAML file the values came from, undefined for flags + env. */
  readonly configFile: string | undefined;
  /** Lease checkpoint interval in ms (test knob, lease-checkpoint.ts); default 5 min. */
  readonly leaseCheckpointIntervalMs?: number;
}

export const DEFAULT_QUOTA_BYTES = 2 * 1024 * 1024 * 1024;
export const MAX_QUOTA_BYTES = 8 * 1024 * 1024 * 1024;
export const MAX_ELECTION_MS = 50000;
export const DEFAULT_PROGRESS_NOTIFY_MS = 600_000;
export const MIN_PROGRESS_NOTIFY_MS = 100;

export function buildConfig(values: Values, ctx: BuildContext): BuildResult {
  const fail = (message: string): BuildResult => ({ ok: false, message });
  const support = checkSupport(values, ctx.profile);
  if (!support.ok) return fail(support.message);
  const warnings = [...support.warnings];

  const logging = resolveLogging(values, ctx.profile);
  if (!logging.ok) return fail(logging.message);
  warnings.push(...logging.warnings);

  const tick = values.num('heartbeat-interval');
  const election = values.num('election-timeout');
  if (tick <= 0) return fail(`--heartbeat-interval must be >0 (set to ${tick}ms)`);
  if (election <= 0) return fail(`--election-timeout must be >0 (set to ${election}ms)`);
  if (5 * tick > election) return fail(`--election-timeout[${election}ms] should be at least as 5 times as --heartbeat-interval[${tick}ms]`);
  if (election > MAX_ELECTION_MS) return fail(`--election-timeout[${election}ms] is too long, and should be set less than ${MAX_ELECTION_MS}ms`);

  const name = values.str('name');
  const urls = resolveClusterUrls(values, name, ctx.configFile !== undefined);
  if (!urls.ok) return fail(urls.message);

  const compaction = resolveAutoCompaction(values.str('auto-compaction-mode'), values.str('auto-compaction-retention'), ctx.profile);
  if (!compaction.ok) return fail(compaction.message);

  const bcryptCost = values.num('bcrypt-cost');
  if (bcryptCost < 4 || bcryptCost > 31) return fail(`invalid value "${bcryptCost}" for flag --bcrypt-cost: must be between 4 and 31`);
  const authToken = values.str('auth-token');
  const tokenType = authToken.split(',')[0];
  if (tokenType !== 'simple' && tokenType !== 'jwt') {
    return fail(`invalid value ${JSON.stringify(authToken)} for flag --auth-token: must be 'simple' or 'jwt,<options>'`);
  }

  const quota = values.num('quota-backend-bytes');
  let effectiveQuota = quota === 0 ? DEFAULT_QUOTA_BYTES : quota;
  if (quota < 0) {
    effectiveQuota = Number.MAX_SAFE_INTEGER;
    warnings.push('backend quota disabled (--quota-backend-bytes is negative)');
  } else if (quota > MAX_QUOTA_BYTES) {
    warnings.push(`--quota-backend-bytes ${quota} exceeds the maximum recommended value ${MAX_QUOTA_BYTES}`);
  }

  let progressMs = values.num('experimental-watch-progress-notify-interval');
  if (progressMs === 0) progressMs = DEFAULT_PROGRESS_NOTIFY_MS;
  if (progressMs < MIN_PROGRESS_NOTIFY_MS) {
    warnings.push(`--experimental-watch-progress-notify-interval ${progressMs}ms raised to the minimum ${MIN_PROGRESS_NOTIFY_MS}ms`);
    progressMs = MIN_PROGRESS_NOTIFY_MS;
  }

  const clientTransportSecurity = transportSecurity(values, '');
  const peerTransportSecurity = transportSecurity(values, 'peer-');
  const cipherSuites = values.list('cipher-suites');
  const tls = checkTls({
    minor: ctx.profile.minor,
    client: clientTransportSecurity,
    peer: peerTransportSecurity,
    listenClientUrls: urls.listenClientUrls,
    listenPeerUrls: urls.listenPeerUrls,
    cipherSuites,
    tlsMinVersion: values.str('tls-min-version'),
    tlsMaxVersion: values.str('tls-max-version'),
  });
  if (!tls.ok) return fail(tls.message);
  warnings.push(...tls.warnings);

  const dataDir = values.str('data-dir') === '' ? `${name}.kvstore` : values.str('data-dir');
  const walDir = values.str('wal-dir');
  const { ok: _ok, ...urlFields } = urls;
  const config: ServerConfig = {
    serverVersion: ctx.serverVersion,
    minorVersion: apiVersionOf(ctx.serverVersion),
    configFile: ctx.configFile,
    name,
    dataDir,
    walDir,
    effectiveWalDir: walDir === '' ? join(dataDir, 'member', 'wal') : walDir,
    snapshotCount: values.num('snapshot-count'),
    heartbeatIntervalMs: tick,
    electionTimeoutMs: election,
    maxSnapshots: values.num('max-snapshots'),
    maxWals: values.num('max-wals'),
    quotaBackendBytes: quota,
    effectiveQuotaBackendBytes: effectiveQuota,
    maxTxnOps: values.num('max-txn-ops'),
    maxRequestBytes: values.num('max-request-bytes'),
    maxConcurrentStreams: values.num('max-concurrent-streams'),
    grpcKeepaliveMinTimeMs: values.num('grpc-keepalive-min-time'),
    grpcKeepaliveIntervalMs: values.num('grpc-keepalive-interval'),
    grpcKeepaliveTimeoutMs: values.num('grpc-keepalive-timeout'),
    ...urlFields,
    initialClusterToken: values.str('initial-cluster-token'),
    initialClusterState: values.str('initial-cluster-state') as ClusterState,
    strictReconfigCheck: values.bool('strict-reconfig-check'),
    preVote: values.bool('pre-vote'),
    forceNewCluster: values.bool('force-new-cluster'),
    autoCompaction: compaction.value,
    enableV2: values.bool('enable-v2'),
    enableGrpcGateway: values.bool('enable-grpc-gateway'),
    experimentalWatchProgressNotifyIntervalMs: progressMs,
    experimentalDowngradeCheckTimeMs: values.num('experimental-downgrade-check-time'),
    experimentalEnableLeaseCheckpoint: values.bool('experimental-enable-lease-checkpoint'),
    leaseCheckpointIntervalMs: ctx.leaseCheckpointIntervalMs ?? DEFAULT_LEASE_CHECKPOINT_INTERVAL_MS,
    logger: logging.logger,
    logLevel: logging.logLevel,
    logOutputs: logging.logOutputs,
    authToken,
    authTokenTtlSeconds: values.num('auth-token-ttl'),
    bcryptCost,
    cors: values.list('cors'),
    hostWhitelist: values.list('host-whitelist'),
    metrics: values.str('metrics') as 'basic' | 'extensive',
    enablePprof: values.bool('enable-pprof'),
    clientTransportSecurity,
    peerTransportSecurity,
    cipherSuites,
    tlsProtocol: tls.protocol,
    selfSignedCertValidityYears: values.num('self-signed-cert-validity'),
    peerSkipClientSanVerification: values.bool('experimental-peer-skip-client-san-verification'),
  };
  return { ok: true, config, warnings };
}

function transportSecurity(values: Values, prefix: '' | 'peer-'): TransportSecurity {
  const peer = prefix === 'peer-';
  return {
    certFile: values.str(`${prefix}cert-file`),
    keyFile: values.str(`${prefix}key-file`),
    clientCertFile: values.str(peer ? 'peer-client-cert-file' : 'client-cert-file'),
    clientKeyFile: values.str(peer ? 'peer-client-key-file' : 'client-key-file'),
    clientCertAuth: values.bool(`${prefix}client-cert-auth`),
    trustedCaFile: values.str(`${prefix}trusted-ca-file`),
    crlFile: values.str(peer ? 'peer-crl-file' : 'client-crl-file'),
    autoTls: values.bool(`${prefix}auto-tls`),
    allowedCn: peer ? values.str('peer-cert-allowed-cn') : '',
    allowedHostname: values.str(peer ? 'peer-cert-allowed-hostname' : 'client-cert-allowed-hostname'),
  };
}
