/**
 * `RehearsalPlatform` on Kubernetes: the scratch member of an upgrade rehearsal is a pod running
 * the TARGET member image (builders/rehearsal-pod.ts), its data restored by its init container
 * from the snapshot the operator serves it (kube-platform/rehearsal-route.ts); the operator dials
 * it at `http://<pod IP>:2379` (the engine's member-url resolver maps that where pods are not
 * reachable directly).
 *
 * Contract:
 * - `start` deletes every scratch pod of the cluster first (also one left by an operator that was
 *   killed: found by its labels), reads the expected figures from the snapshot file on the
 *   operator's volume (snapshot-figures.ts) and its SHA-256 trailer, makes a random token, then
 *   creates the pod; a snapshot whose figures cannot be read is a Failed rehearsal (no pod), a
 *   pod the API refuses is a failed action;
 * - `observe`: pod Pending (or its restore running) → Starting (a container waiting on something,
 *   e.g. ImagePullBackOff, is named in the log tail, which the timeout's failure carries); Running
 *   with a pod IP → Running; Failed / Succeeded / gone, or a container that can never start
 *   (InvalidImageName, ErrImageNeverPull, CreateContainerConfigError) → Failed, naming the
 *   container and how; the log tail is the last lines of the restore container's log, then of
 *   the member container's (pod log API);
 * - `cleanup` deletes the cluster's scratch pods (by label); the pod is also owned by the
 *   cluster, so deleting the cluster deletes it.
 * What this object knows (the rehearsal id, the figures) lives in memory: a restarted operator
 * observes no scratch member and rehearses again.
 */
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { KvstoreCluster } from '../../api/types.js';
import { buildRehearsalPod, rehearsalPodName, rehearsalSelector } from '../../controller/builders/rehearsal-pod.js';
import { RESTORE_CONTAINER_NAME } from '../../controller/builders/restore-init-container.js';
import { CLIENT_PORT, CONTAINER_NAME, namespaceOf } from '../../controller/builders/names.js';
import { portFail, portOk, type EngineLogger, type PortResult, type RehearsalPlatform, type ScratchView } from '../../controller/ports.js';
import type { KubeClient, KubeObject } from '../kube/types.js';
import { LOG_TAIL_LINES } from './process-rehearsal.js';
import { snapshotFigures } from './snapshot-figures.js';

export interface PodRehearsalDeps {
  readonly kube: KubeClient;
  /** The operator's URL serving the snapshot to scratch pod `pod` of `namespace` (rehearsalURLOf). */
  readonly snapshotURL: (namespace: string, pod: string) => string;
  readonly logger: EngineLogger;
}

interface Scratch {
  readonly id: string;
  readonly namespace: string;
  readonly pod: string;
  readonly expected?: { readonly revision: number; readonly keys: number };
  readonly error?: string;
}

type PodDoc = KubeObject & {
  status?: {
    phase?: string;
    podIP?: string;
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
};
interface ContainerStatus {
  name: string;
  state?: { running?: unknown; terminated?: { exitCode?: number; reason?: string; message?: string }; waiting?: { reason?: string; message?: string } };
}

/** The SHA-256 trailer (last 32 bytes) of a snapshot file, hex. */
async function trailerOf(file: string): Promise<PortResult<string>> {
  try {
    const f = await open(file, 'r');
    try {
      const { size } = await f.stat();
      if (size < 32) return portFail(`snapshot ${file} is too short (${size} bytes)`);
      const buf = Buffer.alloc(32);
      await f.read(buf, 0, 32, size - 32);
      return portOk(buf.toString('hex'));
    } finally {
      await f.close();
    }
  } catch (err) {
    return portFail(`snapshot ${file}: ${(err as Error).message}`);
  }
}

/** Waiting reasons the kubelet never gets over (the image name is invalid, or may not be pulled). */
const HOPELESS = new Set(['InvalidImageName', 'ErrImageNeverPull', 'CreateContainerConfigError']);
/** Waiting reasons that are just the way to running. */
const ON_THE_WAY = new Set(['ContainerCreating', 'PodInitializing']);

/** One line per container waiting for something other than its turn (ImagePullBackOff, …). */
function waitingLines(pod: PodDoc): string[] {
  const all = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  return all.flatMap((c) => {
    const w = c.state?.waiting;
    if (w?.reason === undefined || ON_THE_WAY.has(w.reason)) return [];
    return [`container ${c.name} waiting: ${w.reason}${w.message === undefined ? '' : ` (${w.message})`}`];
  });
}

/** How the pod's containers ended, for the failure message. */
function endOf(pod: PodDoc): string {
  const all = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  for (const c of all) {
    const t = c.state?.terminated;
    if (t !== undefined && t.exitCode !== 0) return `container ${c.name} exited ${t.exitCode ?? '?'}${t.reason === undefined ? '' : ` (${t.reason})`}`;
  }
  return `the scratch pod is ${pod.status?.phase ?? 'gone'}`;
}

export class PodRehearsal implements RehearsalPlatform {
  /** By `<namespace>/<cluster>`. */
  private readonly scratches = new Map<string, Scratch>();

  constructor(private readonly deps: PodRehearsalDeps) {}

  async start(cluster: KvstoreCluster, id: string, snapshotPath: string, version: string): Promise<PortResult<void>> {
    const cleaned = await this.cleanup(cluster);
    if (!cleaned.ok) return cleaned;
    const namespace = namespaceOf(cluster);
    const pod = rehearsalPodName(cluster, id);
    const key = keyOf(cluster);
    const fail = (error: string): PortResult<void> => {
      this.scratches.set(key, { id, namespace, pod, error });
      this.deps.logger.warn({ cluster: key, rehearsal: id, error }, 'rehearsal failed to start');
      return portOk(undefined);
    };
    const figures = await snapshotFigures(snapshotPath);
    if (!figures.ok) return fail(figures.error);
    const sha256 = await trailerOf(snapshotPath);
    if (!sha256.ok) return fail(sha256.error);
    const object = buildRehearsalPod(cluster, { id, version, url: this.deps.snapshotURL(namespace, pod), token: randomBytes(32).toString('hex'), sha256: sha256.value, snapshot: basename(snapshotPath) });
    const created = await this.deps.kube.create(object as IPod & KubeObject);
    if (!created.ok) return portFail(`create Pod ${namespace}/${pod}: ${created.error.message}`);
    this.scratches.set(key, { id, namespace, pod, expected: figures.value });
    this.deps.logger.info({ cluster: key, rehearsal: id, pod, version, image: object.spec?.containers[0]?.image }, 'created rehearsal pod');
    return portOk(undefined);
  }

  async observe(cluster: KvstoreCluster): Promise<PortResult<ScratchView | undefined>> {
    const s = this.scratches.get(keyOf(cluster));
    if (s === undefined) return portOk(undefined);
    const base = { id: s.id, clientURL: '', ...(s.expected === undefined ? {} : { expected: s.expected }) };
    if (s.error !== undefined) return portOk({ ...base, phase: 'Failed', error: s.error, logTail: `${s.error}\n` });
    const got = await this.deps.kube.get<PodDoc>({ apiVersion: 'v1', kind: 'Pod', namespace: s.namespace, name: s.pod });
    if (!got.ok && got.error.kind !== 'NotFound') return portFail(`get Pod ${s.namespace}/${s.pod}: ${got.error.message}`);
    if (!got.ok) return portOk({ ...base, phase: 'Failed', error: `the scratch pod ${s.pod} is gone`, logTail: '' });
    const pod = got.value;
    const phase = pod.status?.phase;
    const member = pod.status?.containerStatuses?.find((c) => c.name === CONTAINER_NAME);
    if (phase === 'Failed' || phase === 'Succeeded') {
      return portOk({ ...base, phase: 'Failed', error: `${endOf(pod)} (pod ${s.pod})`, logTail: await this.logTail(s, true) });
    }
    if (phase === 'Running' && pod.status?.podIP !== undefined && member?.state?.running !== undefined) {
      return portOk({ ...base, phase: 'Running', clientURL: `http://${pod.status.podIP}:${CLIENT_PORT}`, logTail: await this.logTail(s, true) });
    }
    const waiting = waitingLines(pod);
    const tail = `${await this.logTail(s, false)}${waiting.map((l) => `${l}\n`).join('')}`;
    const stuck = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].find((c) => HOPELESS.has(c.state?.waiting?.reason ?? ''));
    if (stuck !== undefined) return portOk({ ...base, phase: 'Failed', error: `container ${stuck.name} cannot start: ${stuck.state?.waiting?.reason ?? ''} (pod ${s.pod})`, logTail: tail });
    return portOk({ ...base, phase: 'Starting', logTail: tail });
  }

  async cleanup(cluster: KvstoreCluster): Promise<PortResult<void>> {
    this.scratches.delete(keyOf(cluster));
    const namespace = namespaceOf(cluster);
    const pods = await this.deps.kube.list<KubeObject>({ apiVersion: 'v1', kind: 'Pod', namespace, labelSelector: rehearsalSelector(cluster) });
    if (!pods.ok) return portFail(`list rehearsal pods of ${namespace}/${cluster.metadata.name}: ${pods.error.message}`);
    for (const p of pods.value.items) {
      if (p.metadata.deletionTimestamp !== undefined) continue;
      const d = await this.deps.kube.delete({ apiVersion: 'v1', kind: 'Pod', namespace, name: p.metadata.name });
      if (!d.ok && d.error.kind !== 'NotFound') return portFail(`delete Pod ${namespace}/${p.metadata.name}: ${d.error.message}`);
      this.deps.logger.info({ cluster: keyOf(cluster), pod: p.metadata.name }, 'deleted rehearsal pod');
    }
    return portOk(undefined);
  }

  /** Deletes the scratch pods this object created (operator shutdown; best effort). */
  async stopAll(): Promise<void> {
    for (const s of [...this.scratches.values()]) {
      await this.deps.kube.delete({ apiVersion: 'v1', kind: 'Pod', namespace: s.namespace, name: s.pod });
    }
    this.scratches.clear();
  }

  /** The restore container's log tail, then (once it ran) the member container's. */
  private async logTail(s: Scratch, member: boolean): Promise<string> {
    const read = async (container: string): Promise<string> => {
      const r = await this.deps.kube.podLog({ namespace: s.namespace, name: s.pod, container, tailLines: LOG_TAIL_LINES });
      return r.ok ? r.value : '';
    };
    const restore = await read(RESTORE_CONTAINER_NAME);
    const out = member ? `${restore}${await read(CONTAINER_NAME)}` : restore;
    const lines = out.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines.length === 0 ? '' : `${lines.slice(-LOG_TAIL_LINES).join('\n')}\n`;
  }
}

function keyOf(cluster: KvstoreCluster): string {
  return `${namespaceOf(cluster)}/${cluster.metadata.name}`;
}
