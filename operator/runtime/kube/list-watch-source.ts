/**
 * The real `ListWatchSource` of an informer: the list goes through the `KubeClient`, the watch
 * through client-node's `Watch` on the same KubeConfig, at the collection path discovery gives.
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { ListWatchSource } from '../informer.js';
import type { ClientNodeKubeClient } from './client-node-client.js';
import type { KubeObject, KubeResult, ListQuery } from './types.js';

export async function listWatchSource<T extends KubeObject>(
  kubeConfig: KubeConfig,
  client: ClientNodeKubeClient,
  query: ListQuery,
): Promise<KubeResult<ListWatchSource<T>>> {
  const path = await client.collectionPath(query.apiVersion, query.kind, query.namespace);
  if (!path.ok) return path;
  return {
    ok: true,
    value: {
      path: path.value,
      list: () => client.list<T>(query),
      watcher: new Watch(kubeConfig),
      ...(query.labelSelector !== undefined ? { labelSelector: query.labelSelector } : {}),
      ...(query.fieldSelector !== undefined ? { fieldSelector: query.fieldSelector } : {}),
    },
  };
}
