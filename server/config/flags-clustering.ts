/** Flag table, part 2: clustering, bootstrap, compaction, and the unsupported proxy/discovery modes. */
import { BOOL, FlagGroup, STRING, UINT, advertisedUrls, oneOf, type FlagSpec } from './flag-spec.js';

const G = FlagGroup.Clustering;
const P = FlagGroup.Proxy;

export const CLUSTERING_FLAGS: readonly FlagSpec[] = [
  {
    name: 'initial-advertise-peer-urls', type: advertisedUrls, default: 'http://localhost:2380', group: G, support: 'yes',
    help: "List of this member's peer URLs to advertise to the rest of the cluster.",
  },
  {
    name: 'initial-cluster', type: { kind: 'cluster' }, default: '', defaultHelp: 'default=http://localhost:2380', group: G, support: 'yes',
    help: 'Initial cluster configuration for bootstrapping (default: <name>=<each initial-advertise-peer-url>).',
  },
  {
    name: 'initial-cluster-state', type: oneOf('new', 'existing'), default: 'new', group: G, support: 'yes',
    help: "Initial cluster state ('new' or 'existing').",
  },
  { name: 'initial-cluster-token', type: STRING, default: 'etcd-cluster', help: 'Initial cluster token for the cluster during bootstrap.', group: G, support: 'yes' },
  {
    name: 'advertise-client-urls', type: advertisedUrls, default: 'http://localhost:2379', group: G, support: 'yes',
    help: "List of this member's client URLs to advertise to the public. Required when --listen-client-urls is set.",
  },
  {
    name: 'strict-reconfig-check', type: BOOL, default: 'true', group: G, support: 'yes',
    help: 'Reject reconfiguration requests that would cause quorum loss.',
  },
  {
    name: 'pre-vote', type: BOOL, default: (p) => String(p.defaultPreVote), group: G, support: 'yes', since: '3.4',
    help: 'Enable to run an additional Raft election phase.',
  },
  {
    name: 'auto-compaction-retention', type: { kind: 'retention' }, default: '0', group: G, support: 'yes',
    help: "Auto compaction retention length. 0 means disable auto compaction. Periodic mode: hours ('1') or a duration ('30m', '1h30m'); revision mode: a revision count.",
  },
  {
    name: 'auto-compaction-mode', type: oneOf('periodic', 'revision'), default: 'periodic', group: G, support: 'yes', since: '3.3',
    help: "Interpret 'auto-compaction-retention' one of: periodic|revision.",
  },
  {
    name: 'enable-v2', type: BOOL, default: (p) => String(p.defaultEnableV2), group: G, support: 'yes', since: '3.3',
    help: 'Accept etcd V2 client requests.',
  },
  {
    name: 'v2-deprecation', type: oneOf('not-yet', 'write-only', 'write-only-drop-data', 'gone'), default: 'not-yet', group: G,
    support: 'ignored', since: '3.5', help: 'Phase of v2store deprecation.',
  },
  { name: 'experimental-enable-v2v3', type: STRING, default: '', help: 'v3 prefix for serving emulated v2 state.', group: G, support: 'ignored' },
  {
    name: 'force-new-cluster', type: BOOL, default: 'false', group: G, support: 'yes',
    help: 'Force to create a new one member cluster.',
  },
  {
    name: 'next-cluster-version-compatible', type: BOOL, default: 'false', group: G, support: 'ignored', since: '3.4',
    help: 'Enable 3.4 to be compatible with next version 3.5, to allow 3.4 server to join 3.5 cluster and start on 3.5 schema.',
  },
  {
    name: 'enable-grpc-gateway', type: BOOL, default: 'true', group: G, support: 'yes',
    help: 'Enable GRPC gateway.',
  },

  { name: 'discovery', type: STRING, default: '', help: 'Discovery URL used to bootstrap the cluster.', group: P, support: 'unsupported' },
  {
    name: 'discovery-fallback', type: oneOf('exit', 'proxy'), default: 'proxy', group: P, support: 'unsupported',
    help: "Expected behavior ('exit' or 'proxy') when discovery services fails.",
  },
  { name: 'discovery-proxy', type: STRING, default: '', help: 'HTTP proxy to use for traffic to discovery service.', group: P, support: 'unsupported' },
  { name: 'discovery-srv', type: STRING, default: '', help: 'DNS srv domain used to bootstrap the cluster.', group: P, support: 'unsupported' },
  { name: 'discovery-srv-name', type: STRING, default: '', help: 'Suffix to the dns srv name queried when bootstrapping.', group: P, support: 'unsupported' },
  { name: 'proxy', type: oneOf('off', 'readonly', 'on'), default: 'off', help: "Proxy mode setting ('off', 'readonly' or 'on').", group: P, support: 'unsupported' },
  { name: 'proxy-failure-wait', type: UINT, default: '5000', help: 'Time (in milliseconds) an endpoint will be held in a failed state.', group: P, support: 'ignored' },
  { name: 'proxy-refresh-interval', type: UINT, default: '30000', help: 'Time (in milliseconds) of the endpoints refresh interval.', group: P, support: 'ignored' },
  { name: 'proxy-dial-timeout', type: UINT, default: '1000', help: 'Time (in milliseconds) for a dial to timeout.', group: P, support: 'ignored' },
  { name: 'proxy-write-timeout', type: UINT, default: '5000', help: 'Time (in milliseconds) for a write to timeout.', group: P, support: 'ignored' },
  { name: 'proxy-read-timeout', type: UINT, default: '0', help: 'Time (in milliseconds) for a read to timeout.', group: P, support: 'ignored' },
];
