/**
 * The operator's Kubernetes API requests as a Prometheus counter (metrics.ts registers it with
 * the others):
 *
 * | metric | type | labels |
 * |---|---|---|
 * | kvstore_operator_api_requests_total | counter | namespace, cluster, verb, resource |
 *
 * `namespace`/`cluster` name the cluster whose reconcile pass made the request, both '' for the
 * requests of no pass (leader election, informer lists and watches); `verb` is the API verb
 * (get, list, watch, create, update, patch, delete) and `resource` the plural resource, with
 * `/status` or `/log` for a subresource (kube/counting-client.ts). API requests per cluster per
 * minute: `sum by (namespace, cluster) (rate(kvstore_operator_api_requests_total[5m])) * 60`;
 * its writes: the same with `verb=~"create|update|patch|delete"`.
 */
import { Counter, type Registry } from 'prom-client';

type ClusterLabels = Readonly<Record<'namespace' | 'cluster', string>>;

export interface ApiRequestSeries {
  apiRequest(labels: ClusterLabels, verb: string, resource: string): void;
  /** Drops every series of the cluster. */
  forget(labels: ClusterLabels): void;
}

export function createApiRequestSeries(registry: Registry, prefix: string): ApiRequestSeries {
  const total = new Counter({
    name: `${prefix}api_requests_total`,
    help: 'Kubernetes API requests the operator made, by the cluster whose pass made them (empty: no pass), verb and resource.',
    labelNames: ['namespace', 'cluster', 'verb', 'resource'] as const,
    registers: [registry],
  });
  // The verb/resource pairs each cluster has series for (prom-client removes one full label set at a time).
  const seen = new Map<string, Set<string>>();
  const keyOf = (l: ClusterLabels): string => `${l.namespace}/${l.cluster}`;
  return {
    apiRequest: (l, verb, resource) => {
      total.inc({ ...l, verb, resource });
      let pairs = seen.get(keyOf(l));
      if (pairs === undefined) seen.set(keyOf(l), (pairs = new Set()));
      pairs.add(JSON.stringify([verb, resource]));
    },
    forget: (l) => {
      for (const pair of seen.get(keyOf(l)) ?? []) {
        const [verb, resource] = JSON.parse(pair) as [string, string];
        total.remove({ ...l, verb, resource });
      }
      seen.delete(keyOf(l));
    },
  };
}
