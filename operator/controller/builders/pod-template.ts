/**
 * The member pod template: one `kvstore` container running `<spec.image>:<version>` with
 * KVSTORE_SERVER_VERSION=<version>, its data dir on the `data` claim, readiness on `/health`
 * (a member out of quorum leaves the client Service), liveness on `/version` (answered without
 * quorum, so a partitioned member is not restarted in a loop), non-root with a read-only root
 * file system, the spec's resources and scheduling. Without spec.affinity members prefer
 * distinct nodes. Service links are off: a cluster named `kvstore` would otherwise get
 * `KVSTORE_*` variables that kvstore reads as flags. spec.tls adds the Secret volumes (member-tls.ts)
 * and turns the probes into TCP checks (see probes()).
 */
import type { IAffinity } from 'kubernetes-models/v1/Affinity';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import type { IResourceRequirements } from 'kubernetes-models/v1/ResourceRequirements';
import type { IToleration } from 'kubernetes-models/v1/Toleration';
import type { KvstoreCluster } from '../../api/types.js';
import { memberLabels, selectorLabels } from './labels.js';
import { memberArgs, POD_NAME_ENV } from './member-args.js';
import { tlsVolumeMounts, tlsVolumes } from './member-tls.js';
import type { MemberTemplate } from './member-template.js';
import { buildRestoreInitContainer } from './restore-init-container.js';
import { CLIENT_PORT, CONTAINER_NAME, DATA_DIR, DATA_MOUNT_PATH, DATA_VOLUME, PEER_PORT } from './names.js';

/** uid/gid of the member image's non-root user (the Node images' `node` user). */
export const MEMBER_UID = 1000;

function defaultAffinity(cluster: KvstoreCluster): IAffinity {
  return {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: selectorLabels(cluster) } } },
      ],
    },
  };
}

/**
 * Plain client listener: readiness GET /health, liveness GET /version. A TLS client listener asks
 * every client for a certificate, which the kubelet cannot present: both probes are then TCP
 * connects to the client port (readiness = the listener is up; the operator's own gates still
 * read /health over mutual TLS before every upgrade step).
 */
function probes(cluster: KvstoreCluster): Pick<IContainer, 'readinessProbe' | 'livenessProbe'> {
  if (cluster.spec.tls?.client !== undefined) {
    return {
      readinessProbe: { tcpSocket: { port: 'client' }, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 },
      livenessProbe: { tcpSocket: { port: 'client' }, initialDelaySeconds: 15, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 6 },
    };
  }
  return {
    readinessProbe: { httpGet: { path: '/health', port: 'client' }, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 },
    livenessProbe: { httpGet: { path: '/version', port: 'client' }, initialDelaySeconds: 15, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 6 },
  };
}

export function buildPodTemplate(cluster: KvstoreCluster, template: MemberTemplate): IPodTemplateSpec {
  const spec = cluster.spec;
  const restore = buildRestoreInitContainer(cluster, template);
  return {
    metadata: { labels: memberLabels(cluster, template.version) },
    spec: {
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 30,
      securityContext: {
        runAsNonRoot: true,
        runAsUser: MEMBER_UID,
        runAsGroup: MEMBER_UID,
        fsGroup: MEMBER_UID,
        fsGroupChangePolicy: 'OnRootMismatch',
        seccompProfile: { type: 'RuntimeDefault' },
      },
      ...(restore === undefined ? {} : { initContainers: [restore] }),
      containers: [
        {
          name: CONTAINER_NAME,
          image: `${spec.image}:${template.version}`,
          imagePullPolicy: 'IfNotPresent',
          command: ['kvstore'],
          args: memberArgs(cluster, template),
          env: [
            { name: POD_NAME_ENV, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'KVSTORE_SERVER_VERSION', value: template.version },
            { name: 'KVSTORE_DATA_DIR', value: DATA_DIR },
          ],
          ports: [
            { name: 'client', containerPort: CLIENT_PORT, protocol: 'TCP' },
            { name: 'peer', containerPort: PEER_PORT, protocol: 'TCP' },
          ],
          ...probes(cluster),
          volumeMounts: [
            { name: DATA_VOLUME, mountPath: DATA_MOUNT_PATH },
            { name: 'tmp', mountPath: '/tmp' },
            ...tlsVolumeMounts(cluster),
          ],
          securityContext: {
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            runAsNonRoot: true,
            capabilities: { drop: ['ALL'] },
          },
          ...(spec.resources !== undefined ? { resources: structuredClone(spec.resources) as IResourceRequirements } : {}),
        },
      ],
      volumes: [{ name: 'tmp', emptyDir: {} }, ...tlsVolumes(cluster)],
      affinity: spec.affinity !== undefined ? (structuredClone(spec.affinity) as IAffinity) : defaultAffinity(cluster),
      ...(spec.tolerations !== undefined ? { tolerations: spec.tolerations.map((t) => structuredClone(t) as IToleration) } : {}),
      ...(spec.nodeSelector !== undefined ? { nodeSelector: { ...spec.nodeSelector } } : {}),
    },
  };
}
