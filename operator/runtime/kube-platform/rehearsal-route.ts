/**
 * The operator side of an upgrade rehearsal on Kubernetes: `GET /rehearsal/<namespace>/<pod>` on
 * the operator's metrics listener hands the pre-upgrade snapshot the pod names (annotation
 * `kvstore.io/rehearsal-snapshot`, written by the operator when it creates the pod: a file the
 * operator took and verified) to the restore init container of that scratch pod
 * (builders/rehearsal-pod.ts). Read from the API on every request, like restore-route.ts, so any
 * operator replica answers the same; not from the cluster's status, which the operator writes
 * after the pass that takes the snapshot and creates the pod.
 *
 * Contract (`serveRehearsal` answers; never throws):
 * - 401 without `Authorization: Bearer <token>`;
 * - 404 when the pod is missing or is not a scratch pod (labels `component=rehearsal`, managed
 *   by the operator, a controller owner reference to a KvstoreCluster);
 * - 403 unless the token equals the one in the pod's own restore init container (constant-time
 *   compare; the token is random, made by the operator when it creates the pod);
 * - 404 when the owning cluster is missing; 403 when its uid is not the owner reference's (a
 *   cluster created again under the same name);
 * - 404 when the pod names no snapshot; 403 unless the name is a pre-upgrade snapshot file name of
 *   that cluster (`<cluster>-<from>-to-<to>-<time>.db`, no directory): only files of
 *   `<snapshot dir>/<namespace>/` of that cluster are ever served; 404 when the file is missing;
 * - 200 with the file otherwise.
 * Who could fetch a snapshot: a holder of the token, that is a reader of the scratch pod — or
 * someone allowed to create pods controlled by the cluster in its namespace, who could as well
 * run a pod with the cluster's own Secrets.
 */
import { timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { API_VERSION, KIND } from '../../api/constants.js';
import { LABEL_COMPONENT, LABEL_MANAGED_BY, MANAGER } from '../../controller/builders/labels.js';
import { REHEARSAL_COMPONENT, REHEARSAL_SNAPSHOT_ANNOTATION, rehearsalToken } from '../../controller/builders/rehearsal-pod.js';
import { isSnapshotOf } from '../snapshot-files.js';
import type { KubeClient, KubeObject } from '../kube/types.js';
import type { RestoreAnswer } from './restore-route.js';

const deny = (status: number, message: string): RestoreAnswer => ({ status, message });

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

type PodDoc = KubeObject & { spec?: { initContainers?: IContainer[] } };

export async function serveRehearsal(kube: KubeClient, snapshotDir: string, namespace: string, podName: string, authorization: string | undefined): Promise<RestoreAnswer> {
  const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
  if (token === undefined) return deny(401, 'a bearer token is required');
  const pod = await kube.get<PodDoc>({ apiVersion: 'v1', kind: 'Pod', namespace, name: podName });
  if (!pod.ok) return deny(pod.error.kind === 'NotFound' ? 404 : 503, `Pod ${namespace}/${podName}: ${pod.error.message}`);
  const labels = pod.value.metadata.labels ?? {};
  const owner = pod.value.metadata.ownerReferences?.find((r) => r.controller === true && r.apiVersion === API_VERSION && r.kind === KIND);
  if (labels[LABEL_COMPONENT] !== REHEARSAL_COMPONENT || labels[LABEL_MANAGED_BY] !== MANAGER || owner === undefined) return deny(404, `Pod ${namespace}/${podName} is not a rehearsal's scratch pod`);
  const stored = rehearsalToken(pod.value);
  if (stored === undefined || !sameToken(stored, token)) return deny(403, 'the token is not this pod\'s');
  const cluster = await kube.get<KubeObject>({ apiVersion: API_VERSION, kind: KIND, namespace, name: owner.name });
  if (!cluster.ok) return deny(cluster.error.kind === 'NotFound' ? 404 : 503, `${KIND} ${namespace}/${owner.name}: ${cluster.error.message}`);
  if (cluster.value.metadata.uid !== owner.uid) return deny(403, `${KIND} ${namespace}/${owner.name} is not the pod's owner`);
  const name = pod.value.metadata.annotations?.[REHEARSAL_SNAPSHOT_ANNOTATION];
  if (name === undefined) return deny(404, `Pod ${namespace}/${podName} names no snapshot`);
  if (!isSnapshotOf(owner.name, name)) return deny(403, `${name} is not a snapshot file of ${KIND} ${namespace}/${owner.name}`);
  const file = join(snapshotDir, namespace, name);
  try {
    const st = await stat(file);
    return { status: 200, size: st.size, open: () => createReadStream(file) };
  } catch (err) {
    return deny(404, `${file}: ${(err as Error).message}`);
  }
}

/** The URL `serveRehearsal` answers at for scratch pod `podName` (`base` = the operator's metrics Service URL). */
export function rehearsalURLOf(base: string, namespace: string, podName: string): string {
  return `${base.replace(/\/+$/, '')}/rehearsal/${encodeURIComponent(namespace)}/${encodeURIComponent(podName)}`;
}
