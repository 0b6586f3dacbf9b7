/** Flag table, part 1: the member itself, its storage, limits and listeners. */
import { DURATION, FlagGroup, INT, UINT, STRING, listenUrls, oneOf, BOOL, type FlagSpec } from './flag-spec.js';

const G = FlagGroup.Member;

export const MEMBER_FLAGS: readonly FlagSpec[] = [
  { name: 'name', type: STRING, default: 'default', help: 'Human-readable name for this member.', group: G, support: 'yes' },
  { name: 'data-dir', type: STRING, default: '', defaultHelp: '${name}.kvstore', help: 'Path to the data directory.', group: G, support: 'yes' },
  { name: 'wal-dir', type: STRING, default: '', help: 'Path to the dedicated wal directory (default: <data-dir>/member/wal).', group: G, support: 'yes' },
  {
    name: 'snapshot-count', type: UINT, default: '100000', group: G, support: 'yes',
    help: 'Number of committed transactions to trigger a snapshot to disk.',
  },
  { name: 'heartbeat-interval', type: UINT, default: '100', help: 'Time (in milliseconds) of a heartbeat interval.', group: G, support: 'yes' },
  { name: 'election-timeout', type: UINT, default: '1000', help: 'Time (in milliseconds) for an election to timeout.', group: G, support: 'yes' },
  {
    name: 'initial-election-tick-advance', type: BOOL, default: 'true', group: G, support: 'ignored', since: '3.4',
    help: 'Whether to fast-forward initial election ticks on boot for faster election.',
  },
  {
    name: 'listen-peer-urls', type: listenUrls(true), default: 'http://localhost:2380', group: G, support: 'yes',
    help: 'List of URLs to listen on for peer traffic.',
  },
  {
    name: 'listen-client-urls', type: listenUrls(true), default: 'http://localhost:2379', group: G, support: 'yes',
    help: 'List of URLs to listen on for client gRPC and HTTP traffic.',
  },
  {
    name: 'listen-client-http-urls', type: listenUrls(false), default: '', group: G, support: 'yes', since: '3.5',
    help: 'List of URLs to listen on for HTTP traffic only (the client URLs then serve only gRPC).',
  },
  {
    name: 'listen-metrics-urls', type: listenUrls(false), default: '', group: G, support: 'yes', since: '3.3',
    help: 'List of URLs to listen on for the /metrics and /health endpoints.',
  },
  { name: 'max-snapshots', type: UINT, default: '5', help: 'Maximum number of snapshot files to retain (0 is unlimited).', group: G, support: 'yes' },
  { name: 'max-wals', type: UINT, default: '5', help: 'Maximum number of wal files to retain (0 is unlimited).', group: G, support: 'yes' },
  {
    name: 'quota-backend-bytes', type: INT, default: '0', group: G, support: 'yes',
    help: 'Raise alarms when backend size exceeds the given quota (0 defaults to 2 GiB; negative disables the quota).',
  },
  {
    name: 'backend-bbolt-freelist-type', type: oneOf('map', 'array'), default: 'map', group: G, support: 'ignored', since: '3.5',
    help: 'BackendFreelistType specifies the type of freelist that the backend uses.',
  },
  {
    name: 'backend-batch-interval', type: DURATION, default: '0s', group: G, support: 'ignored',
    help: 'BackendBatchInterval is the maximum time before commit the backend transaction.',
  },
  {
    name: 'backend-batch-limit', type: UINT, default: '0', group: G, support: 'ignored',
    help: 'BackendBatchLimit is the maximum operations before commit the backend transaction.',
  },
  { name: 'max-txn-ops', type: UINT, default: '128', help: 'Maximum number of operations permitted in a transaction.', group: G, support: 'yes' },
  {
    name: 'max-request-bytes', type: UINT, default: '1572864', group: G, support: 'yes', since: '3.3',
    help: 'Maximum client request size in bytes the server will accept.',
  },
  {
    name: 'max-concurrent-streams', type: { kind: 'uint', max: 4294967295 }, default: '4294967295', group: G, support: 'yes', since: '3.4',
    help: 'Maximum concurrent streams that each client can open at a time.',
  },
  {
    name: 'grpc-keepalive-min-time', type: DURATION, default: '5s', group: G, support: 'yes',
    help: 'Minimum duration interval that a client should wait before pinging server.',
  },
  {
    name: 'grpc-keepalive-interval', type: DURATION, default: '2h', group: G, support: 'yes',
    help: 'Frequency duration of server-to-client ping to check if a connection is alive (0 to disable).',
  },
  {
    name: 'grpc-keepalive-timeout', type: DURATION, default: '20s', group: G, support: 'yes',
    help: 'Additional duration of wait before closing a non-responsive connection (0 to disable).',
  },
  { name: 'socket-reuse-port', type: BOOL, default: 'false', help: 'Enable to set socket option SO_REUSEPORT on listeners.', group: G, support: 'ignored', since: '3.5' },
  { name: 'socket-reuse-address', type: BOOL, default: 'false', help: 'Enable to set socket option SO_REUSEADDR on listeners.', group: G, support: 'ignored', since: '3.5' },
  {
    name: 'unsafe-no-fsync', type: BOOL, default: 'false', group: G, support: 'ignored', since: '3.5',
    help: 'Disables fsync, unsafe, will cause data loss.',
  },
];
