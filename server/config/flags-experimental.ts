/** Flag table, part 5: experimental flags. Most are accepted for compatibility and have no effect. */
import { BOOL, DURATION, FlagGroup, INT, STRING, UINT, type FlagSpec, type ValueType } from './flag-spec.js';
import type { MinorVersion } from '../version/minor.js';

const G = FlagGroup.Experimental;

function ignored(name: string, type: ValueType, def: string, help: string, since?: MinorVersion): FlagSpec {
  const spec: FlagSpec = { name, type, default: def, help, group: G, support: 'ignored' };
  return since === undefined ? spec : { ...spec, since };
}

export const EXPERIMENTAL_FLAGS: readonly FlagSpec[] = [
  {
    name: 'experimental-watch-progress-notify-interval', type: DURATION, default: '10m', group: G, support: 'yes', since: '3.4',
    help: 'Duration of periodic watch progress notifications (minimum 100ms).',
  },
  {
    name: 'experimental-downgrade-check-time', type: DURATION, default: '5s', group: G, support: 'yes', since: '3.5',
    help: 'Duration of time between two downgrade status checks.',
  },
  ignored('experimental-initial-corrupt-check', BOOL, 'false', 'Enable to check data corruption before serving any client/peer traffic.'),
  ignored('experimental-corrupt-check-time', DURATION, '0s', 'Duration of time between cluster corruption check passes.'),
  {
    name: 'experimental-enable-lease-checkpoint', type: BOOL, default: 'false', group: G, support: 'yes', since: '3.4',
    help: 'Enable to persist lease remaining TTL to prevent indefinite auto-renewal of long lived leases.',
  },
  ignored('experimental-enable-lease-checkpoint-persist', BOOL, 'false', 'Enable persisting remainingTTL to prevent indefinite auto-renewal of long lived leases.', '3.5'),
  ignored('experimental-compaction-batch-limit', INT, '1000', 'Sets the maximum revisions deleted in each compaction batch.', '3.4'),
  ignored('experimental-compaction-sleep-interval', DURATION, '10ms', 'Sets the sleep interval between each compaction batch.', '3.5'),
  ignored('experimental-warning-apply-duration', DURATION, '100ms', 'Time duration after which a warning is generated if request takes more time.', '3.5'),
  ignored('experimental-backend-bbolt-freelist-type', STRING, 'array', "ExperimentalBackendFreelistType specifies the type of freelist that boltdb backend uses (array and map are supported types).", '3.4'),
  ignored('experimental-txn-mode-write-with-shared-buffer', BOOL, 'true', 'Enable the write transaction to use a shared buffer in its readonly check operations.', '3.5'),
  ignored('experimental-bootstrap-defrag-threshold-megabytes', UINT, '0', 'Enable the defrag during etcd server bootstrap on condition that it will free at least the provided threshold of disk space.', '3.5'),
  ignored('experimental-memory-mlock', BOOL, 'false', 'Enable to enforce etcd pages (in particular bbolt) to stay in RAM.', '3.5'),
  ignored('experimental-enable-distributed-tracing', BOOL, 'false', 'Enable experimental distributed tracing using OpenTelemetry Tracing.', '3.5'),
  ignored('experimental-distributed-tracing-address', STRING, 'localhost:4317', 'Address for distributed tracing used for OpenTelemetry Tracing.', '3.5'),
  ignored('experimental-distributed-tracing-service-name', STRING, 'etcd', 'Configures service name for distributed tracing to be used to define service name for OpenTelemetry Tracing.', '3.5'),
  ignored('experimental-distributed-tracing-instance-id', STRING, '', 'Configures service instance ID for distributed tracing to be used to define service instance ID key for OpenTelemetry Tracing.', '3.5'),
  ignored('experimental-distributed-tracing-sampling-rate', INT, '0', 'Number of samples to collect per million spans for OpenTelemetry Tracing.', '3.5'),
  ignored('experimental-max-learners', INT, '1', 'Sets the maximum number of learners that can be available in the cluster membership.', '3.5'),
  ignored('experimental-snapshot-catchup-entries', UINT, '5000', 'Number of entries for a slow follower to catch up after compacting the raft storage entries.', '3.5'),
  ignored('experimental-stop-grpc-service-on-defrag', BOOL, 'false', 'Enable etcd gRPC service to stop serving client requests on defragmentation.', '3.5'),
  ignored('experimental-wait-cluster-ready-timeout', DURATION, '5s', 'Maximum duration to wait for the cluster to be ready.', '3.5'),
];
