/**
 * The engine's sinks on Kubernetes:
 * - `KubeStatusSink` writes `status` through the status subresource as a merge patch computed
 *   against the status the API server holds right now (re-read before every write), so fields
 *   the new status drops are removed (`null`), and nothing but `status` is touched. A 409 (or a
 *   cluster changed between the read and the write) re-reads and patches again, up to 3 times;
 * - `KubeEventSink` hands events to the event recorder (core/v1 Events about the cluster,
 *   repeats folded into `count`).
 */
import { API_VERSION, KIND, type KvstoreCluster, type KvstoreClusterStatus } from '../../api/types.js';
import { namespaceOf } from '../../controller/builders/names.js';
import type { PlannedEvent } from '../../controller/model.js';
import { portFail, portOk, type EventSink, type PortResult, type StatusSink } from '../../controller/ports.js';
import type { EventRecorder } from '../event-recorder.js';
import type { KubeClient } from '../kube/types.js';
import { mergePatchBetween } from './status-patch.js';

export class KubeStatusSink implements StatusSink {
  constructor(private readonly kube: KubeClient) {}

  async write(cluster: KvstoreCluster, status: KvstoreClusterStatus): Promise<PortResult<void>> {
    const ref = { apiVersion: API_VERSION, kind: KIND, namespace: namespaceOf(cluster), name: cluster.metadata.name };
    let last = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await this.kube.get<KvstoreCluster>(ref);
      if (!current.ok) return portFail(`read ${ref.namespace}/${ref.name}: ${current.error.message}`);
      if (cluster.metadata.uid !== undefined && current.value.metadata.uid !== cluster.metadata.uid) return portFail(`${ref.namespace}/${ref.name} was replaced by another object`);
      const patch = mergePatchBetween(current.value.status ?? {}, status);
      if (patch === undefined) return portOk(undefined);
      const r = await this.kube.patchStatus(ref, patch);
      if (r.ok) return portOk(undefined);
      last = r.error.message;
      if (r.error.kind !== 'Conflict') return portFail(`write status of ${ref.namespace}/${ref.name}: ${last}`);
    }
    return portFail(`write status of ${ref.namespace}/${ref.name}: conflicts on every attempt (${last})`);
  }
}

export class KubeEventSink implements EventSink {
  constructor(private readonly recorder: EventRecorder) {}

  emit(cluster: KvstoreCluster, event: PlannedEvent): Promise<void> {
    return this.recorder.emit({ apiVersion: cluster.apiVersion, kind: cluster.kind, metadata: { ...cluster.metadata, namespace: namespaceOf(cluster) } }, event);
  }
}
