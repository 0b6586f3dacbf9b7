/**
 * The real `ListWatchSource` of an informer: the list goes through the `KubeClient`, the watch
 * through client-node's `Watch` on the same KubeConfig, at the collection path discovery gives.
 * With a `CountingKubeClient`, the list goes through it and each watch request is reported to it
 * (verb `watch`).
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { ListWatchSource, WatchTransport } from '../informer.js';
import type { ClientNodeKubeClient } from './client-node-client.js';
import type { CountingKubeClient } from './counting-client.js';
import { resourceOf } from './resource-name.js';
import type { KubeObject, KubeResult, ListQuery } from './types.js';

function countedWatch(watcher: Watch, counting: CountingKubeClient, resource: string): WatchTransport {
  return {
    watch: (...args: Parameters<Watch['watch']>) => {
      counting.count('watch', resource);
      return watcher.watch(...args);
    },
  };
}

export async function listWatchSource<T extends KubeObject>(
  kubeConfig: KubeConfig,
  client: ClientNodeKubeClient,
  query: ListQuery,
  counting?: CountingKubeClient,
): Promise<KubeResult<ListWatchSource<T>>> {
  const path = await client.collectionPath(query.apiVersion, query.kind, query.namespace);
  if (!path.ok) return path;
  const watcher = new Watch(kubeConfig);
  const lister = counting ?? client;
  return {
    ok: true,
    value: {
      path: path.value,
      list: () => lister.list<T>(query),
      watcher: counting === undefined ? watcher : countedWatch(watcher, counting, resourceOf(query.kind)),
      ...(query.labelSelector !== undefined ? { labelSelector: query.labelSelector } : {}),
      ...(query.fieldSelector !== undefined ? { fieldSelector: query.fieldSelector } : {}),
    },
  };
}
