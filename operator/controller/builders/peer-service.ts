/**
 * The headless peer Service `<name>-peer`: DNS records for every member pod, ready or not
 * (publishNotReadyAddresses), so members find each other while the cluster forms or a member
 * catches up. Also the StatefulSet's serviceName.
 */
import type { IService } from 'kubernetes-models/v1/Service';
import type { KvstoreCluster } from '../../api/types.js';
import { ownedMeta, selectorLabels } from './labels.js';
import { CLIENT_PORT, PEER_PORT, peerServiceName } from './names.js';

export function buildPeerService(cluster: KvstoreCluster): IService {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: ownedMeta(cluster, peerServiceName(cluster)),
    spec: {
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: selectorLabels(cluster),
      ports: [
        { name: 'client', port: CLIENT_PORT, targetPort: 'client', protocol: 'TCP' },
        { name: 'peer', port: PEER_PORT, targetPort: 'peer', protocol: 'TCP' },
      ],
    },
  };
}
