/**
 * What the apiextensions server does with a CustomResourceDefinition: serving its type as soon
 * as it is created (before the create answers, so a client may create resources right after),
 * marking it Established/NamesAccepted in its status, and dropping the type with all its
 * objects when the CRD is deleted.
 */
import type { ObjectStore, StoreEvent } from './object-store.js';
import { typeKey, typeOfCrd, type ResourceType } from './resources.js';
import type { KubeObject } from './types.js';

const CRD_KEY = 'apiextensions.k8s.io/customresourcedefinitions';

function established(crd: KubeObject, now: string): KubeObject {
  const spec = (crd.spec ?? {}) as { names?: unknown };
  const cond = (type: string, reason: string, message: string): Record<string, string> => ({ type, status: 'True', lastTransitionTime: now, reason, message });
  return {
    ...crd,
    status: {
      conditions: [cond('NamesAccepted', 'NoConflicts', 'no conflicts found'), cond('Established', 'InitialNamesAccepted', 'the initial names have been accepted')],
      acceptedNames: spec.names ?? {},
      storedVersions: ((crd.spec as { versions?: { name: string; storage?: boolean }[] }).versions ?? []).filter((v) => v.storage === true).map((v) => v.name),
    },
  };
}

/** Keeps the registry in step with the CRDs in the store; answers the unsubscribe function. */
export function runCrdController(store: ObjectStore): () => void {
  const served = new Map<string, ResourceType>();
  const crdType = store.registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
  return store.subscribe((e: StoreEvent) => {
    if (e.typeKey !== CRD_KEY || crdType === undefined) return;
    const name = e.object.metadata.name ?? '';
    if (e.type === 'DELETED' || e.object.metadata.deletionTimestamp !== undefined) {
      const t = served.get(name);
      if (t !== undefined) {
        served.delete(name);
        store.dropType(t);
        store.registry.undefine(t);
      }
      return;
    }
    const t = typeOfCrd(e.object);
    if ('error' in t) return;
    const before = served.get(name);
    if (before !== undefined && typeKey(before) !== typeKey(t)) store.registry.undefine(before);
    served.set(name, t);
    store.registry.define(t);
    const conditions = (e.object.status as { conditions?: { type: string }[] } | undefined)?.conditions ?? [];
    if (!conditions.some((c) => c.type === 'Established')) {
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      store.update(crdType, undefined, name, established(e.object, now), 'status');
    }
  });
}
