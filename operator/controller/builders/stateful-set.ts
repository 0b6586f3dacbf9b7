/**
 * The member StatefulSet (named after the cluster). `OnDelete` updates: changing the template
 * (the version during an upgrade) restarts nothing; the operator deletes one pod at a time and the
 * StatefulSet brings it back from the new template with the same name, claim and URLs.
 * `Parallel` pod management: all members of a new cluster start together (they need each other
 * for the first election). Claims of scaled-down members are deleted (a removed member's data must
 * never come back under its name); claims outlive the StatefulSet itself.
 */
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import type { KvstoreCluster } from '../../api/types.js';
import { clusterLabels, ownedMeta, selectorLabels } from './labels.js';
import type { MemberTemplate } from './member-template.js';
import { DATA_VOLUME, peerServiceName, statefulSetName } from './names.js';
import { buildPodTemplate } from './pod-template.js';

export function buildStatefulSet(cluster: KvstoreCluster, template: MemberTemplate): IStatefulSet {
  const storage = cluster.spec.storage;
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: ownedMeta(cluster, statefulSetName(cluster)),
    spec: {
      replicas: template.members,
      serviceName: peerServiceName(cluster),
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'OnDelete' },
      selector: { matchLabels: selectorLabels(cluster) },
      template: buildPodTemplate(cluster, template),
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
      volumeClaimTemplates: [
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: DATA_VOLUME, labels: clusterLabels(cluster) },
          spec: {
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: storage.size } },
            ...(storage.storageClassName !== undefined ? { storageClassName: storage.storageClassName } : {}),
          },
        },
      ],
    },
  };
}
