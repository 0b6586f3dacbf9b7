/**
 * The server configuration after parsing and validation: what the rest of the server reads.
 *
 * Invariants of a ServerConfig produced by loadConfig:
 * - every URL list is non-empty where etcd requires it (listen-client, listen-peer,
 *   advertise-client, initial-advertise-peer), deduplicated and sorted by text like etcd's
 *   `UniqueURLs`; URL texts are kept as given (JS `URL.href` would add a trailing `/`);
 * - electionTimeoutMs ≥ 5 × heartbeatIntervalMs, ≤ 50000;
 * - initialCluster is non-empty and each member has at least one peer URL.
 * Durations are in milliseconds, sizes in bytes.
 */
import type { MinorVersion } from '../version/minor.js';
import type { TlsProtocol } from './tls-config.js';

export const LogLevel = {
  Debug: 'debug',
  Info: 'info',
  Warn: 'warn',
  Error: 'error',
  Panic: 'panic',
  Fatal: 'fatal',
} as const;
export type LogLevel = (typeof LogLevel)[keyof typeof LogLevel];

export const LoggerKind = { Zap: 'zap', Capnslog: 'capnslog' } as const;
export type LoggerKind = (typeof LoggerKind)[keyof typeof LoggerKind];

export const ClusterState = { New: 'new', Existing: 'existing' } as const;
export type ClusterState = (typeof ClusterState)[keyof typeof ClusterState];

/** One `<name>=<peer-url>[,<name>=<peer-url>…]` member of --initial-cluster (URLs of one name grouped). */
export interface InitialClusterMember {
  readonly name: string;
  /** Sorted, deduplicated peer URL texts. */
  readonly peerUrls: readonly string[];
}

/** Auto compaction, or `undefined` when the retention is 0 (off). */
export type AutoCompaction =
  | { readonly mode: 'periodic'; readonly retentionMs: number }
  | { readonly mode: 'revision'; readonly retention: bigint };

/**
 * TLS settings of one side (client or peer) as given. Served by server/tls on the side's
 * https URLs; on the peer side also used to dial other members' https peer URLs.
 */
export interface TransportSecurity {
  readonly certFile: string;
  readonly keyFile: string;
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  readonly clientCertAuth: boolean;
  readonly trustedCaFile: string;
  readonly crlFile: string;
  readonly autoTls: boolean;
  /** Peer side only: --peer-cert-allowed-cn. */
  readonly allowedCn: string;
  readonly allowedHostname: string;
}

export interface ServerConfig {
  /** Server version presented, e.g. `3.5.0` (from KVSTORE_SERVER_VERSION). */
  readonly serverVersion: string;
  /** `major.minor` of serverVersion. */
  readonly minorVersion: MinorVersion;
  /** The YAML file the configuration came from, or undefined when from flags and env. */
  readonly configFile: string | undefined;

  // member
  readonly name: string;
  /** Default `<name>.kvstore`. */
  readonly dataDir: string;
  /** As given; '' means `<dataDir>/member/wal` (see effectiveWalDir). */
  readonly walDir: string;
  readonly effectiveWalDir: string;
  readonly snapshotCount: number;
  readonly heartbeatIntervalMs: number;
  readonly electionTimeoutMs: number;
  readonly maxSnapshots: number;
  readonly maxWals: number;
  /** As given: 0 = default quota, negative = no quota. */
  readonly quotaBackendBytes: number;
  /** The quota applied: 2 GiB for 0, Number.MAX_SAFE_INTEGER for a negative value. */
  readonly effectiveQuotaBackendBytes: number;
  readonly maxTxnOps: number;
  readonly maxRequestBytes: number;
  readonly maxConcurrentStreams: number;
  readonly grpcKeepaliveMinTimeMs: number;
  readonly grpcKeepaliveIntervalMs: number;
  readonly grpcKeepaliveTimeoutMs: number;

  // listeners and advertised URLs
  readonly listenPeerUrls: readonly URL[];
  readonly listenClientUrls: readonly URL[];
  /** Extra HTTP-only client listeners (empty = HTTP served on listenClientUrls). */
  readonly listenClientHttpUrls: readonly URL[];
  /** Extra listeners for /metrics and /health (may be empty). */
  readonly listenMetricsUrls: readonly URL[];
  readonly advertiseClientUrls: readonly string[];
  readonly initialAdvertisePeerUrls: readonly string[];

  // clustering
  readonly initialCluster: readonly InitialClusterMember[];
  readonly initialClusterToken: string;
  readonly initialClusterState: ClusterState;
  readonly strictReconfigCheck: boolean;
  readonly preVote: boolean;
  readonly forceNewCluster: boolean;
  readonly autoCompaction: AutoCompaction | undefined;
  readonly enableV2: boolean;
  readonly enableGrpcGateway: boolean;
  /** Watch progress notifications; 0 given → 600000 (10 min); below 100 raised to 100. */
  readonly experimentalWatchProgressNotifyIntervalMs: number;
  readonly experimentalDowngradeCheckTimeMs: number;
  /** --experimental-enable-lease-checkpoint: the leader checkpoints remaining lease TTLs. */
  readonly experimentalEnableLeaseCheckpoint: boolean;
  /** Time between two checkpoints of a lease: 5 min, or KVSTORE_LEASE_CHECKPOINT_INTERVAL (lease-checkpoint.ts). */
  readonly leaseCheckpointIntervalMs: number;

  // logging
  readonly logger: LoggerKind;
  readonly logLevel: LogLevel;
  /** `default`/`stderr`, `stdout` or file paths; never empty; `default` never combined. */
  readonly logOutputs: readonly string[];

  // auth
  /** `simple` or a `jwt,…` option string. */
  readonly authToken: string;
  readonly authTokenTtlSeconds: number;
  readonly bcryptCost: number;

  // HTTP edge and monitoring
  readonly cors: readonly string[];
  readonly hostWhitelist: readonly string[];
  readonly metrics: 'basic' | 'extensive';
  readonly enablePprof: boolean;

  // security (checked by tls-config.ts)
  readonly clientTransportSecurity: TransportSecurity;
  readonly peerTransportSecurity: TransportSecurity;
  /** Go names as given; `tlsProtocol.ciphers` holds the OpenSSL string. */
  readonly cipherSuites: readonly string[];
  readonly tlsProtocol: TlsProtocol;
  /** --experimental-peer-skip-client-san-verification. */
  readonly peerSkipClientSanVerification: boolean;
  /** --self-signed-cert-validity: years an --auto-tls certificate is valid. */
  readonly selfSignedCertValidityYears: number;
}

/** What `loadConfig` decided the process should do. */
export type ConfigOutcome =
  | { readonly kind: 'run'; readonly config: ServerConfig; readonly warnings: string[] }
  | { readonly kind: 'version'; readonly serverVersion: string }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'error'; readonly message: string };
