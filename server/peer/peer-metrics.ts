/**
 * The network metrics of the peer transport (etcd's `etcd_network_*`, prefixed `kvstore_`),
 * registered on the registry given (never the prom-client default one). Peer label values are
 * member ids as lowercase hex without padding.
 *
 * Several transports may share one registry (a simulation running members in one process):
 * a metric already registered under the same name is reused.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { exponentialBuckets } from '../metrics/metric-handles.js';

export interface PeerMetrics {
  readonly sentBytes: Counter<'To'>;
  readonly receivedBytes: Counter<'From'>;
  readonly sentFailures: Counter<'To'>;
  readonly receivedFailures: Counter<'From'>;
  readonly roundTrip: Histogram<'To'>;
  readonly activePeers: Gauge<'Local' | 'Remote'>;
  readonly disconnectedPeers: Counter<'Local' | 'Remote'>;
  readonly snapshotSendSuccess: Counter<'To'>;
  readonly snapshotSendFailures: Counter<'To'>;
  readonly snapshotSendInflights: Gauge<'To'>;
  readonly snapshotSendDuration: Histogram<'To'>;
  readonly snapshotReceiveSuccess: Counter<'From'>;
  readonly snapshotReceiveFailures: Counter<'From'>;
  readonly snapshotReceiveInflights: Gauge<'From'>;
  readonly snapshotReceiveDuration: Histogram<'From'>;
}

const P = 'kvstore_network_';

export function createPeerMetrics(registry: Registry): PeerMetrics {
  function reuse<M>(name: string, make: () => M): M {
    return (registry.getSingleMetric(name) as M | undefined) ?? make();
  }
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> =>
    reuse(P + name, () => new Counter<L>({ name: P + name, help, labelNames, registers: [registry] }));
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> =>
    reuse(P + name, () => new Gauge<L>({ name: P + name, help, labelNames, registers: [registry] }));
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> =>
    reuse(P + name, () => new Histogram<L>({ name: P + name, help, labelNames, buckets, registers: [registry] }));
  const snapshotBuckets = exponentialBuckets(0.1, 2, 9);

  return {
    sentBytes: counter('peer_sent_bytes_total', 'The total number of bytes sent to peers.', ['To']),
    receivedBytes: counter('peer_received_bytes_total', 'The total number of bytes received from peers.', ['From']),
    sentFailures: counter('peer_sent_failures_total', 'The total number of send failures from peers.', ['To']),
    receivedFailures: counter('peer_received_failures_total', 'The total number of receive failures from peers.', ['From']),
    roundTrip: histogram('peer_round_trip_time_seconds', 'Round-Trip-Time histogram between peers', ['To'], exponentialBuckets(0.0001, 2, 16)),
    activePeers: gauge('active_peers', 'The current number of active peer connections.', ['Local', 'Remote']),
    disconnectedPeers: counter('disconnected_peers_total', 'The total number of disconnected peers.', ['Local', 'Remote']),
    snapshotSendSuccess: counter('snapshot_send_success', 'Total number of successful snapshot sends', ['To']),
    snapshotSendFailures: counter('snapshot_send_failures', 'Total number of snapshot send failures', ['To']),
    snapshotSendInflights: gauge('snapshot_send_inflights_total', 'Total number of inflight snapshot sends', ['To']),
    snapshotSendDuration: histogram('snapshot_send_total_duration_seconds', 'Total latency distributions of v3 snapshot sends', ['To'], snapshotBuckets),
    snapshotReceiveSuccess: counter('snapshot_receive_success', 'Total number of successful snapshot receives', ['From']),
    snapshotReceiveFailures: counter('snapshot_receive_failures', 'Total number of snapshot receive failures', ['From']),
    snapshotReceiveInflights: gauge('snapshot_receive_inflights_total', 'Total number of inflight snapshot receives', ['From']),
    snapshotReceiveDuration: histogram(
      'snapshot_receive_total_duration_seconds',
      'Total latency distributions of v3 snapshot receives',
      ['From'],
      snapshotBuckets,
    ),
  };
}
