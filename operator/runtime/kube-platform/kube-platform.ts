/**
 * `MemberPlatform` on Kubernetes: the members of a KvstoreCluster are the pods of its
 * StatefulSet (`OnDelete` updates), reached through the headless peer Service's DNS names.
 *
 * - observe: the StatefulSet (replicas, template version = the template's version label, else
 *   its image tag) and the cluster's pods (label selector), read fresh from the API server on
 *   every pass (never a cache: decisions follow status, which must not lag our own writes);
 *   slots 0 … max(replicas, pods, spec.size) - 1 once the StatefulSet exists;
 * - ensureObjects: the peer and client Services, the StatefulSet and the PodDisruptionBudget
 *   (builders/), each with the controller owner reference, created or brought up to date
 *   (apply-object.ts). Members bootstrap with `--initial-cluster-state new` when the StatefulSet
 *   is created; a scale-up (more replicas than stored) switches the template to `existing`;
 *   otherwise the stored state is kept;
 *   Created from a snapshot (`restore`): the pod template gets the restore init container
 *   (builders/restore-init-container.ts) with a new random token, kept in every later template;
 * - setTemplateVersion: the StatefulSet template (image tag, version label, env) at `version`;
 *   OnDelete: no pod restarts by itself;
 * - restartMember: deletes the pod; the StatefulSet controller recreates it from the current
 *   template with the same name, claim and URLs (gone already = done);
 * - resetMember: template to `existing`, then deletes the member's claim `data-<pod>` and the
 *   pod, so it comes back empty and joins the running cluster.
 * - data loss: the claim each member ran with is recorded on the StatefulSet (claim-record.ts);
 *   a slot whose claim is since replaced or gone is observed `dataLost` (reconcile replaces it);
 *   resetMember and scale changes drop the entries of the slots they replace, create or remove.
 */
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import type { KvstoreCluster } from '../../api/types.js';
import { LABEL_VERSION, selectorLabels } from '../../controller/builders/labels.js';
import type { InitialClusterState, MemberTemplate } from '../../controller/builders/member-template.js';
import { DATA_VOLUME, namespaceOf, statefulSetName } from '../../controller/builders/names.js';
import { buildOwnedObjects } from '../../controller/builders/owned-objects.js';
import { buildStatefulSet } from '../../controller/builders/stateful-set.js';
import { storedRestore } from '../../controller/builders/restore-init-container.js';
import type { RestoreRequest } from '../../controller/restore/restore-check.js';
import { randomBytes } from 'node:crypto';
import { portFail, portOk, type MemberPlatform, type PlatformView, type PortResult } from '../../controller/ports.js';
import type { KubeClient, KubeObject } from '../kube/types.js';
import { applyObject } from './apply-object.js';
import { keepBelow, liveClaims, lostPods, parseRecord, toRecord, writeRecord } from './claim-record.js';
import { identityResolver, type UrlResolver } from './member-url.js';
import { podCount, slotsOf, versionOfImage, type PodView } from './pod-slot.js';

/** StatefulSet spec fields an update may change (the others are immutable). */
export const STATEFULSET_MUTABLE = ['replicas', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'] as const;

type StatefulSet = KubeObject & Pick<IStatefulSet, 'spec'>;

const asKube = <T>(o: unknown): T & KubeObject & { spec?: Record<string, unknown> } => o as T & KubeObject & { spec?: Record<string, unknown> };

/** What a stored StatefulSet says about the member template. */
export function storedTemplate(sts: StatefulSet): MemberTemplate {
  const container = sts.spec?.template.spec?.containers[0];
  const label = sts.spec?.template.metadata?.labels?.[LABEL_VERSION];
  const version = label ?? versionOfImage(container?.image);
  const flag = (container?.args ?? []).find((a) => a.startsWith('--initial-cluster-state='));
  const state: InitialClusterState = flag?.endsWith('=existing') === true ? 'existing' : 'new';
  const restore = storedRestore(sts.spec?.template.spec?.initContainers);
  return { members: sts.spec?.replicas ?? 0, version, initialClusterState: state, ...(restore === undefined ? {} : { restore }) };
}

function labelSelector(cluster: KvstoreCluster): string {
  return Object.entries(selectorLabels(cluster))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

export class KubePlatform implements MemberPlatform {
  /**
   * `peerURL` maps a member's DNS peer URL to the one the members know it by (identity in a
   * cluster; a test whose pods advertise local addresses maps it): reconcile matches slots to
   * the member list by peer URL and registers learners with it.
   */
  constructor(
    private readonly kube: KubeClient,
    private readonly peerURL: UrlResolver = identityResolver,
    /** The operator's URL serving a cluster's checked snapshot to its init containers (restore-route.ts); absent: no restores. */
    private readonly restoreURL?: (cluster: KvstoreCluster) => string,
  ) {}

  private stsRef(cluster: KvstoreCluster) {
    return { apiVersion: 'apps/v1', kind: 'StatefulSet', namespace: namespaceOf(cluster), name: statefulSetName(cluster) };
  }

  private async readSts(cluster: KvstoreCluster): Promise<PortResult<StatefulSet | undefined>> {
    const got = await this.kube.get<StatefulSet>(this.stsRef(cluster));
    if (got.ok) return portOk(got.value);
    return got.error.kind === 'NotFound' ? portOk(undefined) : portFail(`read StatefulSet ${statefulSetName(cluster)}: ${got.error.message}`);
  }

  /** The view, or a failure once `signal` aborts (an API call that hangs never stalls a pass). */
  observe(cluster: KvstoreCluster, signal: AbortSignal): Promise<PortResult<PlatformView>> {
    if (signal.aborted) return Promise.resolve(portFail('observation aborted'));
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(portFail('the API server did not answer within the observation bound'));
      signal.addEventListener('abort', onAbort, { once: true });
      void this.read(cluster).then((r) => {
        signal.removeEventListener('abort', onAbort);
        resolve(r);
      });
    });
  }

  private async read(cluster: KvstoreCluster): Promise<PortResult<PlatformView>> {
    const sts = await this.readSts(cluster);
    if (!sts.ok) return sts;
    const pods = await this.kube.list<PodView>({ apiVersion: 'v1', kind: 'Pod', namespace: namespaceOf(cluster), labelSelector: labelSelector(cluster) });
    if (!pods.ok) return portFail(`list pods: ${pods.error.message}`);
    const stored = sts.value === undefined ? undefined : storedTemplate(sts.value);
    const replicas = stored?.members ?? 0;
    // Once the objects exist, slots up to spec.size too: a member about to be added (scale-up)
    // already has its peer URL (the pod's DNS name), which reconcile registers as a learner first.
    const count = Math.max(replicas, podCount(cluster, pods.value.items), stored === undefined ? 0 : cluster.spec.size);
    const slots = await Promise.all(slotsOf(cluster, pods.value.items, count).map(async (s) => ({ ...s, peerURL: await this.peerURL(s.peerURL) })));
    const lost = sts.value === undefined ? new Set<string>() : await this.claimsLost(cluster, sts.value, slots.filter((s) => s.running).map((s) => s.name));
    return portOk({ objectsExist: sts.value !== undefined, templateVersion: stored?.version ?? '', replicas, slots: slots.map((s) => (lost.has(s.name) ? { ...s, dataLost: true } : s)) });
  }

  /** Records the claims of running members not recorded yet; the members whose recorded claim is replaced or gone. Unknown (none) when the claims cannot be listed. */
  private async claimsLost(cluster: KvstoreCluster, sts: StatefulSet, running: readonly string[]): Promise<ReadonlySet<string>> {
    const claims = await this.kube.list<KubeObject>({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: namespaceOf(cluster), labelSelector: labelSelector(cluster) });
    if (!claims.ok) return new Set();
    const record = parseRecord(sts.metadata.annotations);
    const live = liveClaims(claims.value.items);
    const add = toRecord(record, live, running);
    if (Object.keys(add).length > 0) await writeRecord(this.kube, this.stsRef(cluster), { ...record, ...add }); // a failed write is retried next pass
    return lostPods(record, live);
  }

  private async dropClaims(cluster: KvstoreCluster, keep: (record: Readonly<Record<string, string>>) => Readonly<Record<string, string>>): Promise<PortResult<void>> {
    const sts = await this.readSts(cluster);
    if (!sts.ok || sts.value === undefined) return sts.ok ? portOk(undefined) : sts;
    const record = parseRecord(sts.value.metadata.annotations);
    const kept = keep(record);
    return Object.keys(kept).length === Object.keys(record).length ? portOk(undefined) : writeRecord(this.kube, this.stsRef(cluster), kept);
  }

  async ensureObjects(cluster: KvstoreCluster, version: string, replicas: number, restore?: RestoreRequest): Promise<PortResult<void>> {
    const sts = await this.readSts(cluster);
    if (!sts.ok) return sts;
    const stored = sts.value === undefined ? undefined : storedTemplate(sts.value);
    const state: InitialClusterState = stored === undefined ? 'new' : replicas > stored.members ? 'existing' : (stored.initialClusterState ?? 'new');
    let seed = stored?.restore;
    if (stored === undefined && restore !== undefined) {
      if (this.restoreURL === undefined) return portFail('this operator serves no snapshots to member pods (start it with a metrics listener and --restore-base-url)');
      seed = { url: this.restoreURL(cluster), sha256: restore.sha256, token: randomBytes(24).toString('hex') };
    }
    for (const o of buildOwnedObjects(cluster, { members: replicas, version, initialClusterState: state, ...(seed === undefined ? {} : { restore: seed }) })) {
      const r = o.kind === 'StatefulSet' ? await applyObject(this.kube, asKube(o), STATEFULSET_MUTABLE) : await applyObject(this.kube, asKube(o));
      if (!r.ok) return r;
    }
    // Slots created or removed by this change get new claims: their entries go.
    return stored === undefined ? portOk(undefined) : this.dropClaims(cluster, (r) => keepBelow(r, cluster.metadata.name, Math.min(stored.members, replicas)));
  }

  private async applyTemplate(cluster: KvstoreCluster, change: (t: MemberTemplate) => MemberTemplate): Promise<PortResult<void>> {
    const sts = await this.readSts(cluster);
    if (!sts.ok) return sts;
    if (sts.value === undefined) return portFail(`StatefulSet ${statefulSetName(cluster)} does not exist`);
    const r = await applyObject(this.kube, asKube(buildStatefulSet(cluster, change(storedTemplate(sts.value)))), STATEFULSET_MUTABLE);
    return r.ok ? portOk(undefined) : r;
  }

  setTemplateVersion(cluster: KvstoreCluster, version: string): Promise<PortResult<void>> {
    return this.applyTemplate(cluster, (t) => ({ ...t, version }));
  }

  private async deleteIfPresent(kind: 'Pod' | 'PersistentVolumeClaim', cluster: KvstoreCluster, name: string): Promise<PortResult<void>> {
    const r = await this.kube.delete({ apiVersion: 'v1', kind, namespace: namespaceOf(cluster), name });
    if (r.ok || r.error.kind === 'NotFound') return portOk(undefined);
    return portFail(`delete ${kind} ${name}: ${r.error.message}`);
  }

  restartMember(cluster: KvstoreCluster, name: string): Promise<PortResult<void>> {
    return this.deleteIfPresent('Pod', cluster, name);
  }

  async resetMember(cluster: KvstoreCluster, name: string): Promise<PortResult<void>> {
    const t = await this.applyTemplate(cluster, (x) => ({ ...x, initialClusterState: 'existing' }));
    if (!t.ok) return t;
    const dropped = await this.dropClaims(cluster, (r) => Object.fromEntries(Object.entries(r).filter(([pod]) => pod !== name)));
    if (!dropped.ok) return dropped;
    const claim = await this.deleteIfPresent('PersistentVolumeClaim', cluster, `${DATA_VOLUME}-${name}`);
    if (!claim.ok) return claim;
    return this.deleteIfPresent('Pod', cluster, name);
  }
}
