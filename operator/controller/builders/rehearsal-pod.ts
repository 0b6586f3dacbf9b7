/**
 * The scratch pod of an upgrade rehearsal on Kubernetes (controller/upgrade/rehearsal.ts decides,
 * runtime/rehearsal/pod-rehearsal.ts runs it): one pod `<cluster>-rehearsal-<id suffix>` running
 * the TARGET member image `<spec.image>:<version>` (the image a member upgraded to `version` runs,
 * as pod-template.ts picks it), never a member of the cluster:
 * - labels `app.kubernetes.io/name: kvstore-rehearsal` (not `kvstore`): the client and peer
 *   Services, the PodDisruptionBudget and the StatefulSet select `name=kvstore` + instance, so
 *   none of them selects it; instance + managed-by stay, so the operator's pod watch wakes the
 *   cluster's reconcile when it changes; controller owner reference to the cluster (deleted with it);
 * - init container `restore` (the restore init container's script, builders/restore-init-container.ts):
 *   fetches the pre-upgrade snapshot from the operator (`url`, bearer `token`, checks the SHA-256
 *   trailer `sha256`) and runs `kvstorectl snapshot restore` into an emptyDir data dir as the
 *   single member `rehearsal` of a cluster of its own (token `rehearsal-<id>`);
 * - container `kvstore`: that member, peer listener on the pod's loopback only (it has no peers),
 *   client listener on the pod IP (plain http: only the operator dials it), spec.options as
 *   `version` accepts them, spec.resources / nodeSelector / tolerations / affinity of the members;
 * - restartPolicy Never: a restore or a member that fails leaves the pod Failed (the rehearsal
 *   fails with the containers' log tails), never a crash loop.
 * Pure.
 */
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { IResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';
import type { IAffinity } from 'kubernetes-models/v1/Affinity';
import type { IToleration } from 'kubernetes-models/v1/Toleration';
import type { KvstoreCluster } from '../../api/types.js';
import { APP_NAME, clusterLabels, LABEL_COMPONENT, LABEL_NAME, LABEL_VERSION, ownedMeta } from './labels.js';
import { optionFlags } from './member-args.js';
import { MEMBER_UID } from './pod-template.js';
import { RESTORE_CONTAINER_NAME, RESTORE_SCRIPT, RESTORE_SHA256_ENV, RESTORE_TOKEN_ENV, RESTORE_URL_ENV } from './restore-init-container.js';
import { CLIENT_PORT, CONTAINER_NAME, DATA_DIR, DATA_MOUNT_PATH, DATA_VOLUME, PEER_PORT } from './names.js';

export const REHEARSAL_COMPONENT = 'rehearsal';
export const REHEARSAL_APP_NAME = `${APP_NAME}-rehearsal`;
/** Annotation holding the rehearsal id (status.upgrade.rehearsal.id). */
export const REHEARSAL_ID_ANNOTATION = 'kvstore.io/rehearsal-id';
/** Annotation naming the snapshot file (a name in the operator's snapshot directory of the namespace) the pod restores. */
export const REHEARSAL_SNAPSHOT_ANNOTATION = 'kvstore.io/rehearsal-snapshot';
/** The scratch member's name inside its own one-member cluster. */
export const REHEARSAL_MEMBER = 'rehearsal';
const POD_IP_ENV = 'POD_IP';
/** Peer URL: the pod's loopback (a single member has no peers). */
const PEER_URL = `http://127.0.0.1:${PEER_PORT}`;

/** What the scratch pod needs besides the cluster. */
export interface RehearsalPodInput {
  readonly id: string;
  /** The target version. */
  readonly version: string;
  /** The operator's URL serving the snapshot to this pod (runtime/kube-platform/rehearsal-route.ts). */
  readonly url: string;
  /** Bearer token the operator checks against the one in this pod's init container. */
  readonly token: string;
  /** The snapshot file's SHA-256 trailer, hex. */
  readonly sha256: string;
  /** The snapshot file's name (no directory). */
  readonly snapshot: string;
}

/** Labels of a cluster's scratch pods (`name` differs from the members': no Service, PDB or StatefulSet selects them). */
export function rehearsalLabels(cluster: KvstoreCluster, version?: string): Record<string, string> {
  return {
    ...clusterLabels(cluster),
    [LABEL_NAME]: REHEARSAL_APP_NAME,
    [LABEL_COMPONENT]: REHEARSAL_COMPONENT,
    ...(version === undefined ? {} : { [LABEL_VERSION]: version }),
  };
}

/** Label selector of a cluster's scratch pods (any rehearsal id). */
export function rehearsalSelector(cluster: KvstoreCluster): string {
  return Object.entries(rehearsalLabels(cluster)).map(([k, v]) => `${k}=${v}`).join(',');
}

/** `<cluster>-rehearsal-<suffix>`: the id without its `<cluster>-` prefix, a DNS label of at most 63 characters. */
export function rehearsalPodName(cluster: KvstoreCluster, id: string): string {
  const name = cluster.metadata.name;
  const raw = id.startsWith(`${name}-`) ? id.slice(name.length + 1) : id;
  const suffix = raw.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
  return `${name}-rehearsal-${suffix}`.slice(0, 63).replace(/-+$/, '');
}

/** The flags of the scratch member (also those its restore writes into the data dir). */
export function rehearsalArgs(cluster: KvstoreCluster, input: Pick<RehearsalPodInput, 'id' | 'version'>): string[] {
  return [
    `--name=${REHEARSAL_MEMBER}`,
    `--listen-client-urls=http://0.0.0.0:${CLIENT_PORT}`,
    `--advertise-client-urls=http://$(${POD_IP_ENV}):${CLIENT_PORT}`,
    `--listen-peer-urls=${PEER_URL}`,
    `--initial-advertise-peer-urls=${PEER_URL}`,
    `--initial-cluster=${REHEARSAL_MEMBER}=${PEER_URL}`,
    `--initial-cluster-token=rehearsal-${input.id}`,
    '--initial-cluster-state=new',
    ...optionFlags(cluster.spec.options, input.version),
  ];
}

const containerSecurity = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
};

function restoreContainer(cluster: KvstoreCluster, input: RehearsalPodInput): IContainer {
  return {
    name: RESTORE_CONTAINER_NAME,
    image: `${cluster.spec.image}:${input.version}`,
    imagePullPolicy: 'IfNotPresent',
    command: ['node', '-e', RESTORE_SCRIPT, '--'],
    args: [
      DATA_DIR,
      'new',
      '--name',
      REHEARSAL_MEMBER,
      '--initial-cluster',
      `${REHEARSAL_MEMBER}=${PEER_URL}`,
      '--initial-cluster-token',
      `rehearsal-${input.id}`,
      '--initial-advertise-peer-urls',
      PEER_URL,
    ],
    env: [
      { name: RESTORE_URL_ENV, value: input.url },
      { name: RESTORE_SHA256_ENV, value: input.sha256 },
      { name: RESTORE_TOKEN_ENV, value: input.token },
    ],
    volumeMounts: [
      { name: DATA_VOLUME, mountPath: DATA_MOUNT_PATH },
      { name: 'tmp', mountPath: '/tmp' },
    ],
    securityContext: containerSecurity,
  };
}

export function buildRehearsalPod(cluster: KvstoreCluster, input: RehearsalPodInput): IPod & { metadata: { name: string } } {
  const spec = cluster.spec;
  const meta = ownedMeta(cluster, rehearsalPodName(cluster, input.id), rehearsalLabels(cluster, input.version));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...meta, name: meta.name ?? '', annotations: { [REHEARSAL_ID_ANNOTATION]: input.id, [REHEARSAL_SNAPSHOT_ANNOTATION]: input.snapshot } },
    spec: {
      restartPolicy: 'Never',
      enableServiceLinks: false,
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: 5,
      securityContext: {
        runAsNonRoot: true,
        runAsUser: MEMBER_UID,
        runAsGroup: MEMBER_UID,
        fsGroup: MEMBER_UID,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      initContainers: [restoreContainer(cluster, input)],
      containers: [
        {
          name: CONTAINER_NAME,
          image: `${spec.image}:${input.version}`,
          imagePullPolicy: 'IfNotPresent',
          command: ['kvstore'],
          args: rehearsalArgs(cluster, input),
          env: [
            { name: POD_IP_ENV, valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'KVSTORE_SERVER_VERSION', value: input.version },
            { name: 'KVSTORE_DATA_DIR', value: DATA_DIR },
          ],
          ports: [{ name: 'client', containerPort: CLIENT_PORT, protocol: 'TCP' }],
          readinessProbe: { httpGet: { path: '/health', port: 'client' }, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 },
          volumeMounts: [
            { name: DATA_VOLUME, mountPath: DATA_MOUNT_PATH },
            { name: 'tmp', mountPath: '/tmp' },
          ],
          securityContext: containerSecurity,
          ...(spec.resources !== undefined ? { resources: structuredClone(spec.resources) as IResourceRequirements } : {}),
        },
      ],
      volumes: [
        { name: DATA_VOLUME, emptyDir: {} },
        { name: 'tmp', emptyDir: {} },
      ],
      ...(spec.affinity !== undefined ? { affinity: structuredClone(spec.affinity) as IAffinity } : {}),
      ...(spec.tolerations !== undefined ? { tolerations: spec.tolerations.map((t) => structuredClone(t) as IToleration) } : {}),
      ...(spec.nodeSelector !== undefined ? { nodeSelector: { ...spec.nodeSelector } } : {}),
    },
  };
}

/** The token stored in a scratch pod's restore init container (what the rehearsal route compares). */
export function rehearsalToken(pod: { readonly spec?: { readonly initContainers?: readonly IContainer[] } }): string | undefined {
  const c = pod.spec?.initContainers?.find((x) => x.name === RESTORE_CONTAINER_NAME);
  return c?.env?.find((e) => e.name === RESTORE_TOKEN_ENV)?.value;
}
