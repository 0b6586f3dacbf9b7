/**
 * POST pods/<name>/eviction: a pod deletion that respects PodDisruptionBudgets. A ready pod
 * covered by a budget with no disruptions allowed is refused with 429 TooManyRequests (the API
 * server's message and DisruptionBudget cause); otherwise the budget's disruptionsAllowed is
 * taken down by one at once (so two quick evictions cannot both pass) and the pod is deleted
 * (gracefully when a kubelet runs it). Answers 201 with a Success Status.
 */
import type { ObjectStore } from './object-store.js';
import type { ResourceType } from './resources.js';
import { matchesSelectorObject, type LabelSelectorObject } from './selectors.js';
import { notFound, statusError, type ApiError } from './status.js';
import type { Json, KubeObject } from './types.js';

function isReady(pod: KubeObject): boolean {
  const st = (pod.status ?? {}) as { conditions?: { type: string; status: string }[] };
  return (st.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Evicts a pod; answers the HTTP code and body. */
export function evict(store: ObjectStore, namespace: string | undefined, name: string): { code: number; body: Json } | ApiError {
  const podType = store.registry.lookup('', 'v1', 'pods') as ResourceType;
  const pdbType = store.registry.lookup('policy', 'v1', 'poddisruptionbudgets') as ResourceType;
  const pod = store.get(podType, namespace, name);
  if (pod === undefined) return notFound({ group: '', plural: 'pods', name });
  const budgets = store.list({ type: pdbType, namespace, match: () => true }).items
    .filter((b) => matchesSelectorObject((b.spec as { selector?: LabelSelectorObject } | undefined)?.selector, pod.metadata.labels ?? {}));
  if (pod.metadata.deletionTimestamp === undefined && isReady(pod)) {
    for (const b of budgets) {
      const st = (b.status ?? {}) as { disruptionsAllowed?: number; desiredHealthy?: number; currentHealthy?: number; disruptedPods?: Record<string, string> };
      if ((st.disruptionsAllowed ?? 0) < 1) {
        return statusError(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
          causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${b.metadata.name ?? ''} needs ${st.desiredHealthy ?? 0} healthy pods and has ${st.currentHealthy ?? 0} currently` }],
        });
      }
      const status = { ...st, disruptionsAllowed: (st.disruptionsAllowed ?? 1) - 1, disruptedPods: { ...st.disruptedPods, [name]: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') } };
      store.update(pdbType, namespace, b.metadata.name ?? '', { ...b, status }, 'status');
    }
  }
  const deleted = store.delete(podType, namespace, name, {});
  if (!deleted.ok) return deleted.error;
  return { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
}
