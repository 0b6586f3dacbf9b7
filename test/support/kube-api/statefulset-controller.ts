/**
 * The StatefulSet controller of kube-controller-manager, reduced to what the operator relies on:
 * pods `<sts>-<ordinal>` from the CURRENT template (owner reference to the set, labels
 * `controller-revision-hash`, `statefulset.kubernetes.io/pod-name`, `apps.kubernetes.io/pod-index`,
 * hostname and subdomain), PVCs `<claim>-<sts>-<ordinal>` from volumeClaimTemplates (never
 * deleted by the controller), OrderedReady or Parallel pod management, scale down from the
 * highest ordinal, updateStrategy OnDelete (a deleted pod comes back from the current template
 * with the same name) or RollingUpdate (highest outdated ordinal first, one at a time, when all
 * are ready), failed pods replaced, and status (replicas, readyReplicas, currentReplicas,
 * updatedReplicas, availableReplicas, currentRevision, updateRevision, observedGeneration).
 *
 * Level-triggered: any change of a set, a pod or a PVC schedules one pass over every set.
 */
import { createHash } from 'node:crypto';
import type { ObjectStore, StoreEvent } from './object-store.js';
import type { ResourceType } from './resources.js';
import type { KubeObject } from './types.js';

interface ClaimTemplate {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { resources?: { requests?: Record<string, string> }; accessModes?: string[] };
}

interface SetSpec {
  replicas?: number;
  serviceName?: string;
  podManagementPolicy?: string;
  selector?: { matchLabels?: Record<string, string> };
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
  updateStrategy?: { type?: string; rollingUpdate?: { partition?: number } };
  volumeClaimTemplates?: ClaimTemplate[];
}

interface SetStatus {
  currentRevision?: string;
}

const REVISION_LABEL = 'controller-revision-hash';

/** `<sts>-<10 hex digits of the template's hash>` */
export function revisionOf(sts: KubeObject): string {
  const spec = (sts.spec ?? {}) as SetSpec;
  const hash = createHash('sha256').update(JSON.stringify(spec.template ?? {})).digest('hex').slice(0, 10);
  return `${sts.metadata.name ?? ''}-${hash}`;
}

/** The pod's ordinal under this set, or undefined when the name does not fit. */
function ordinalOf(setName: string, podName: string): number | undefined {
  const m = new RegExp(`^${setName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)$`).exec(podName);
  return m === null ? undefined : Number(m[1]);
}

function isReady(pod: KubeObject): boolean {
  const st = (pod.status ?? {}) as { phase?: string; conditions?: { type: string; status: string }[] };
  return st.phase === 'Running' && (st.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') && pod.metadata.deletionTimestamp === undefined;
}

function isFailed(pod: KubeObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase === 'Failed' || phase === 'Succeeded';
}

function claimName(claim: ClaimTemplate, setName: string, ordinal: number): string {
  return `${claim.metadata?.name ?? 'data'}-${setName}-${ordinal}`;
}

function podFor(sts: KubeObject, ordinal: number, revision: string): KubeObject {
  const spec = (sts.spec ?? {}) as SetSpec;
  const setName = sts.metadata.name ?? '';
  const name = `${setName}-${ordinal}`;
  const tpl = structuredClone(spec.template ?? {});
  const claims = spec.volumeClaimTemplates ?? [];
  const claimNames = claims.map((c) => c.metadata?.name ?? 'data');
  const tplVolumes = ((tpl.spec?.volumes ?? []) as { name: string }[]).filter((v) => !claimNames.includes(v.name));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: sts.metadata.namespace,
      labels: { ...tpl.metadata?.labels, [REVISION_LABEL]: revision, 'statefulset.kubernetes.io/pod-name': name, 'apps.kubernetes.io/pod-index': String(ordinal) },
      ...(tpl.metadata?.annotations !== undefined ? { annotations: tpl.metadata.annotations } : {}),
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: setName, uid: sts.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      ...tpl.spec,
      hostname: name,
      ...(spec.serviceName !== undefined ? { subdomain: spec.serviceName } : {}),
      volumes: [...tplVolumes, ...claims.map((c) => ({ name: c.metadata?.name ?? 'data', persistentVolumeClaim: { claimName: claimName(c, setName, ordinal) } }))],
    },
  };
}

/** Starts the controller; answers the stop function. */
export function runStatefulSetController(store: ObjectStore): () => void {
  const setType = store.registry.lookup('apps', 'v1', 'statefulsets') as ResourceType;
  const podType = store.registry.lookup('', 'v1', 'pods') as ResourceType;
  const pvcType = store.registry.lookup('', 'v1', 'persistentvolumeclaims') as ResourceType;
  let scheduled = false;
  let stopped = false;

  const ensureClaims = (sts: KubeObject, ordinal: number): void => {
    const spec = (sts.spec ?? {}) as SetSpec;
    const ns = sts.metadata.namespace;
    for (const c of spec.volumeClaimTemplates ?? []) {
      const name = claimName(c, sts.metadata.name ?? '', ordinal);
      if (store.get(pvcType, ns, name) !== undefined) continue;
      const created = store.create(pvcType, ns, {
        apiVersion: 'v1', kind: 'PersistentVolumeClaim',
        metadata: { name, namespace: ns, labels: { ...spec.selector?.matchLabels, ...c.metadata?.labels } },
        spec: structuredClone(c.spec ?? {}),
      });
      if (created.ok) {
        store.update(pvcType, ns, name, { ...created.object, status: { phase: 'Bound', accessModes: c.spec?.accessModes ?? ['ReadWriteOnce'], capacity: c.spec?.resources?.requests ?? {} } }, 'status');
      }
    }
  };

  const reconcileSet = (sts: KubeObject): void => {
    const spec = (sts.spec ?? {}) as SetSpec;
    const ns = sts.metadata.namespace;
    const setName = sts.metadata.name ?? '';
    const replicas = spec.replicas ?? 1;
    const parallel = spec.podManagementPolicy === 'Parallel';
    const revision = revisionOf(sts);
    const pods = new Map<number, KubeObject>();
    for (const p of store.list({ type: podType, namespace: ns, match: () => true }).items) {
      const ord = ordinalOf(setName, p.metadata.name ?? '');
      const owned = (p.metadata.ownerReferences ?? []).some((r) => r.uid === sts.metadata.uid && r.controller === true);
      if (ord !== undefined && owned) pods.set(ord, p);
    }
    // Create missing pods (in order unless Parallel); replace failed ones.
    for (let ord = 0; ord < replicas; ord++) {
      const pod = pods.get(ord);
      if (pod === undefined) {
        ensureClaims(sts, ord);
        const created = store.create(podType, ns, podFor(sts, ord, revision));
        if (created.ok) pods.set(ord, created.object);
        if (!parallel) break;
        continue;
      }
      if (isFailed(pod) && pod.metadata.deletionTimestamp === undefined) {
        store.delete(podType, ns, pod.metadata.name ?? '', {});
        if (!parallel) break;
        continue;
      }
      if (!parallel && !isReady(pod)) break;
    }
    // Scale down, highest ordinal first.
    const extra = [...pods.keys()].filter((o) => o >= replicas).sort((a, b) => b - a);
    const allReady = [...pods.entries()].filter(([o]) => o < replicas).every(([, p]) => isReady(p));
    for (const ord of extra) {
      const pod = pods.get(ord) as KubeObject;
      if (pod.metadata.deletionTimestamp !== undefined) {
        if (!parallel) break;
        continue;
      }
      if (!parallel && !allReady) break;
      store.delete(podType, ns, pod.metadata.name ?? '', {});
      if (!parallel) break;
    }
    // RollingUpdate: the highest outdated ordinal, one at a time, when all are ready.
    const strategy = spec.updateStrategy?.type ?? 'RollingUpdate';
    const live = [...pods.entries()].filter(([o]) => o < replicas);
    if (strategy === 'RollingUpdate' && live.length === replicas && live.every(([, p]) => isReady(p))) {
      const partition = spec.updateStrategy?.rollingUpdate?.partition ?? 0;
      const outdated = live.filter(([o, p]) => o >= partition && p.metadata.labels?.[REVISION_LABEL] !== revision).sort(([a], [b]) => b - a)[0];
      if (outdated !== undefined) store.delete(podType, ns, outdated[1].metadata.name ?? '', {});
    }
    // Status.
    const existing = [...pods.values()];
    const updated = existing.filter((p) => p.metadata.labels?.[REVISION_LABEL] === revision).length;
    const old = (sts.status ?? {}) as SetStatus;
    const currentRevision = updated === replicas && existing.length === replicas ? revision : (old.currentRevision ?? revision);
    const status = {
      observedGeneration: sts.metadata.generation ?? 1,
      replicas: existing.length,
      readyReplicas: existing.filter(isReady).length,
      availableReplicas: existing.filter(isReady).length,
      currentReplicas: existing.filter((p) => p.metadata.labels?.[REVISION_LABEL] === currentRevision).length,
      updatedReplicas: updated,
      currentRevision,
      updateRevision: revision,
      collisionCount: 0,
    };
    const fresh = store.get(setType, ns, setName);
    if (fresh !== undefined && fresh.metadata.uid === sts.metadata.uid) store.update(setType, ns, setName, { ...fresh, status }, 'status');
  };

  const pass = (): void => {
    scheduled = false;
    if (stopped) return;
    for (const sts of store.list({ type: setType, namespace: undefined, match: () => true }).items) {
      if (sts.metadata.deletionTimestamp === undefined) reconcileSet(sts);
    }
  };
  const schedule = (): void => {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(pass);
  };
  const unsubscribe = store.subscribe((e: StoreEvent) => {
    if (e.typeKey === 'apps/statefulsets' || e.typeKey === '/pods' || e.typeKey === '/persistentvolumeclaims') schedule();
  });
  schedule();
  return () => {
    stopped = true;
    unsubscribe();
  };
}
