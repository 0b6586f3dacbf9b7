/**
 * The disruption controller, reduced: each PodDisruptionBudget's status (expectedPods,
 * currentHealthy = ready matching pods, desiredHealthy from minAvailable or maxUnavailable —
 * integers or percentages rounded up —, disruptionsAllowed, the DisruptionAllowed condition,
 * observedGeneration), recomputed whenever a pod or a budget changes. The eviction subresource
 * (handlers) reads it to refuse evictions that would break a budget.
 */
import type { ObjectStore, StoreEvent } from './object-store.js';
import type { ResourceType } from './resources.js';
import { matchesSelectorObject, type LabelSelectorObject } from './selectors.js';
import type { KubeObject } from './types.js';

interface BudgetSpec {
  selector?: LabelSelectorObject;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
}

function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  return m === null ? Number(value) : Math.ceil((Number(m[1]) * total) / 100);
}

function isReady(pod: KubeObject): boolean {
  const st = (pod.status ?? {}) as { conditions?: { type: string; status: string }[] };
  return pod.metadata.deletionTimestamp === undefined && (st.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The status a budget should have given the pods of its namespace. */
export function budgetStatus(pdb: KubeObject, pods: readonly KubeObject[]): Record<string, unknown> {
  const spec = (pdb.spec ?? {}) as BudgetSpec;
  const matching = pods.filter((p) => matchesSelectorObject(spec.selector, p.metadata.labels ?? {}));
  const expected = matching.length;
  const healthy = matching.filter(isReady).length;
  const desired = spec.minAvailable !== undefined
    ? scaled(spec.minAvailable, expected)
    : spec.maxUnavailable !== undefined ? Math.max(0, expected - scaled(spec.maxUnavailable, expected)) : expected;
  const allowed = Math.max(0, healthy - desired);
  const old = (pdb.status ?? {}) as { conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
  const status = allowed > 0 ? 'True' : 'False';
  const prev = old.conditions?.find((c) => c.type === 'DisruptionAllowed');
  return {
    observedGeneration: pdb.metadata.generation ?? 1,
    expectedPods: expected,
    currentHealthy: healthy,
    desiredHealthy: desired,
    disruptionsAllowed: allowed,
    conditions: [{
      type: 'DisruptionAllowed', status, reason: allowed > 0 ? 'SufficientPods' : 'InsufficientPods', message: '',
      observedGeneration: pdb.metadata.generation ?? 1,
      lastTransitionTime: prev?.status === status ? prev.lastTransitionTime : new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    }],
  };
}

/** Starts the controller; answers the stop function. */
export function runDisruptionController(store: ObjectStore): () => void {
  const pdbType = store.registry.lookup('policy', 'v1', 'poddisruptionbudgets') as ResourceType;
  const podType = store.registry.lookup('', 'v1', 'pods') as ResourceType;
  let scheduled = false;
  let stopped = false;
  const pass = (): void => {
    scheduled = false;
    if (stopped) return;
    for (const pdb of store.list({ type: pdbType, namespace: undefined, match: () => true }).items) {
      const pods = store.list({ type: podType, namespace: pdb.metadata.namespace, match: () => true }).items;
      store.update(pdbType, pdb.metadata.namespace, pdb.metadata.name ?? '', { ...pdb, status: budgetStatus(pdb, pods) }, 'status');
    }
  };
  const unsubscribe = store.subscribe((e: StoreEvent) => {
    if ((e.typeKey === '/pods' || e.typeKey === 'policy/poddisruptionbudgets') && !scheduled && !stopped) {
      scheduled = true;
      setImmediate(pass);
    }
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}
