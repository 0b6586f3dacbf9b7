/**
 * The client Service `<name>-client`: a ClusterIP in front of the ready members' client port
 * (2379), the address applications and kvstorectl use.
 */
import type { IService } from 'kubernetes-models/v1/Service';
import type { KvstoreCluster } from '../../api/types.js';
import { ownedMeta, selectorLabels } from './labels.js';
import { CLIENT_PORT, clientServiceName } from './names.js';

export function buildClientService(cluster: KvstoreCluster): IService {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: ownedMeta(cluster, clientServiceName(cluster)),
    spec: {
      type: 'ClusterIP',
      selector: selectorLabels(cluster),
      ports: [{ name: 'client', port: CLIENT_PORT, targetPort: 'client', protocol: 'TCP' }],
    },
  };
}
