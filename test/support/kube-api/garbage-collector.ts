/**
 * Background cascading deletion, as kube-controller-manager's garbage collector does it: when
 * an object is gone, each dependent naming it in ownerReferences loses that reference; a
 * dependent left with no existing owner is deleted (background propagation). Runs deferred
 * (never inside the store's write that removed the owner).
 */
import type { ObjectStore, StoreEvent } from './object-store.js';

/** Starts collecting; answers the stop function. */
export function runGarbageCollector(store: ObjectStore): () => void {
  let stopped = false;
  const collect = (uid: string): void => {
    if (stopped) return;
    for (const { type, object } of store.dependentsOf(uid)) {
      const others = (object.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid && store.exists(r.uid));
      const name = object.metadata.name ?? '';
      if (others.length > 0) {
        store.update(type, object.metadata.namespace, name, { ...object, metadata: { ...object.metadata, ownerReferences: others } });
      } else if (object.metadata.deletionTimestamp === undefined) {
        store.delete(type, object.metadata.namespace, name, { propagationPolicy: 'Background' });
      }
    }
  };
  const unsubscribe = store.subscribe((e: StoreEvent) => {
    const uid = e.object.metadata.uid;
    if (e.type === 'DELETED' && uid !== undefined) setImmediate(() => collect(uid));
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}
