/**
 * The per-version profile: every behaviour that differs between the 3.2, 3.3, 3.4 and 3.5
 * lines is a field here, and code asks the profile instead of comparing versions.
 *
 * Rows: configuration (flag defaults, how strictly inputs are read) and the client-facing
 * interface (gateway prefixes, /health body, metric names). Sources: SPEC.md "Endpoints"
 * and "Breaking changes" tables (SPEC.md wins where it and ETCD-FACTS.md differ), and
 * ETCD-FACTS.md §4.1, §5.2, §8.3, §9.
 */
import { apiVersionOf } from './version.js';
import { MINOR_VERSIONS, type MinorVersion } from './minor.js';

export interface VersionProfile {
  readonly minor: MinorVersion;
  /** Default of `--logger` (SPEC: zap is the default from 3.4 on). */
  readonly defaultLogger: 'zap' | 'capnslog';
  /** `--logger=capnslog` is accepted but reported as deprecated. */
  readonly capnslogDeprecated: boolean;
  /** Default of `--pre-vote` (true from 3.5). */
  readonly defaultPreVote: boolean;
  /** Default of `--enable-v2` (true in 3.2/3.3, false from 3.4). */
  readonly defaultEnableV2: boolean;
  /** `--enable-v2` is reported as deprecated when set. */
  readonly enableV2Deprecated: boolean;
  /**
   * YAML type of `auto-compaction-retention`: an integer (hours) up to 3.2, a string
   * (quoted number or duration) from 3.3 on.
   */
  readonly yamlCompactionRetention: 'integer' | 'string';
  /** A periodic retention may be a duration string such as `30m` (3.3+); before, whole hours only. */
  readonly compactionRetentionDurations: boolean;
  /** An environment variable that a command-line flag shadows: a warning up to 3.3, fatal from 3.4. */
  readonly envShadowedByFlag: 'warn' | 'error';
  /** The JSON gateway's current prefix (SPEC: 3.2 /v3alpha, 3.3–3.4 /v3beta, 3.5 /v3). */
  readonly gatewayPrefix: string;
  /** Other prefixes served as the current one. 3.4 also serves /v3 (what 3.4 clients use). */
  readonly gatewayAliases: readonly string[];
  /** Older prefixes answered with a redirect to the current one (3.3: /v3alpha). */
  readonly gatewayRedirects: readonly string[];
  /**
   * Gateway paths (under the prefix) this line does not serve, answered 404: before 3.5 there
   * is no `/maintenance/hashkv` (HashKV shares Hash's path, Hash wins) and no
   * `/maintenance/downgrade` (a real etcd 3.4 answers both `404 Not Found`).
   */
  readonly gatewayAbsentPaths: readonly string[];
  /**
   * `/health` body: `spaced` = `{"health": "true"}` (3.2's hand-built JSON), `plain` =
   * `{"health":"true"}` (3.3, 3.4), `reason` = adds `"reason"` (3.5).
   */
  readonly healthBody: 'spaced' | 'plain' | 'reason';
  /** 3.5 promotes kvstore_debugging_mvcc_* put/delete/txn/db-size metrics to kvstore_mvcc_* and drops the old names. */
  readonly metricNames: 'debugging' | 'promoted';
  /**
   * gRPC methods this line introduced (ETCD-FACTS §1.1): served only once the cluster
   * version reaches this line; before, `etcdserver: not capable`.
   */
  readonly introducedRpcs: readonly string[];
  /** PUT /config/local/log still works but is reported as deprecated (SPEC: 3.5). */
  readonly configLogDeprecated: boolean;
  /** With auth on, LeaseTimeToLive with `keys` needs read permission on every attached key (3.5; 3.4 lists them to anyone). */
  readonly authLeaseTimeToLiveKeys: boolean;
}

const PROFILES: Readonly<Record<MinorVersion, VersionProfile>> = {
  '3.2': {
    minor: '3.2',
    defaultLogger: 'capnslog',
    capnslogDeprecated: false,
    defaultPreVote: false,
    defaultEnableV2: true,
    enableV2Deprecated: false,
    yamlCompactionRetention: 'integer',
    compactionRetentionDurations: false,
    envShadowedByFlag: 'warn',
    gatewayPrefix: '/v3alpha',
    gatewayAliases: [],
    gatewayRedirects: [],
    gatewayAbsentPaths: ['/maintenance/hashkv', '/maintenance/downgrade'],
    healthBody: 'spaced',
    metricNames: 'debugging',
    introducedRpcs: [],
    configLogDeprecated: false,
    authLeaseTimeToLiveKeys: false,
  },
  '3.3': {
    minor: '3.3',
    defaultLogger: 'capnslog',
    capnslogDeprecated: false,
    defaultPreVote: false,
    defaultEnableV2: true,
    enableV2Deprecated: false,
    yamlCompactionRetention: 'string',
    compactionRetentionDurations: true,
    envShadowedByFlag: 'warn',
    gatewayPrefix: '/v3beta',
    gatewayAliases: [],
    gatewayRedirects: ['/v3alpha'],
    gatewayAbsentPaths: ['/maintenance/hashkv', '/maintenance/downgrade'],
    healthBody: 'plain',
    metricNames: 'debugging',
    introducedRpcs: ['/etcdserverpb.Lease/LeaseLeases'],
    configLogDeprecated: false,
    authLeaseTimeToLiveKeys: false,
  },
  '3.4': {
    minor: '3.4',
    defaultLogger: 'zap',
    capnslogDeprecated: false,
    defaultPreVote: false,
    defaultEnableV2: false,
    enableV2Deprecated: false,
    yamlCompactionRetention: 'string',
    compactionRetentionDurations: true,
    envShadowedByFlag: 'error',
    gatewayPrefix: '/v3beta',
    gatewayAliases: ['/v3'],
    gatewayRedirects: [],
    gatewayAbsentPaths: ['/maintenance/hashkv', '/maintenance/downgrade'],
    healthBody: 'plain',
    metricNames: 'debugging',
    introducedRpcs: ['/etcdserverpb.Cluster/MemberPromote'],
    configLogDeprecated: false,
    authLeaseTimeToLiveKeys: false,
  },
  '3.5': {
    minor: '3.5',
    defaultLogger: 'zap',
    capnslogDeprecated: true,
    defaultPreVote: true,
    defaultEnableV2: false,
    enableV2Deprecated: true,
    yamlCompactionRetention: 'string',
    compactionRetentionDurations: true,
    envShadowedByFlag: 'error',
    gatewayPrefix: '/v3',
    gatewayAliases: [],
    gatewayRedirects: [],
    gatewayAbsentPaths: [],
    healthBody: 'reason',
    metricNames: 'promoted',
    introducedRpcs: ['/etcdserverpb.Maintenance/Downgrade', '/etcdserverpb.Auth/AuthStatus'],
    configLogDeprecated: true,
    authLeaseTimeToLiveKeys: true,
  },
};

/** The profile of a minor line. */
export function profileOf(minor: MinorVersion): VersionProfile {
  return PROFILES[minor];
}

/** The profile of a validated server version such as `3.4.27`. */
export function profileFor(serverVersion: string): VersionProfile {
  return PROFILES[apiVersionOf(serverVersion)];
}

/**
 * Whether a cluster at version `clusterMinor` serves gRPC method `path`. Undefined (not
 * decided) and 3.0 (the initial version before the leader raises it) enable everything.
 */
export function capableOf(clusterMinor: string | undefined, path: string): boolean {
  if (clusterMinor === undefined || clusterMinor === '3.0') return true;
  for (const minor of MINOR_VERSIONS) {
    if (!PROFILES[minor].introducedRpcs.includes(path)) continue;
    const [a, b] = minor.split('.').map(Number) as [number, number];
    const [c, d] = clusterMinor.split('.').map(Number) as [number, number];
    return c > a || (c === a && d >= b);
  }
  return true;
}

/**
 * Largest response a member sends, in bytes: 4 MiB on 3.2.10 and 3.2.11 (SPEC, Limits),
 * otherwise unlimited (2^31 − 1).
 */
export function responseLimitBytes(serverVersion: string): number {
  return /^3\.2\.1[01]$/.test(serverVersion) ? 4 * 1024 * 1024 : 2 ** 31 - 1;
}
