/**
 * A kubelet for the test server: every pod that appears is started through a `PodRunner` (the
 * port a test passes in), and its status follows the process: Running with podIP once started,
 * the Ready/ContainersReady conditions and containerStatuses[].ready from the runner's readiness
 * probe, a restart (restartCount + 1, lastState.terminated, waiting CrashLoopBackOff for a
 * backoff of 1 s doubling up to 10 s) when the process exits on its own (restartPolicy Always;
 * Failed/Succeeded otherwise). A start that fails (an init container exited non-zero) is retried
 * after 1 s, except under restartPolicy Never: the pod is then Failed. A pod with a deletionTimestamp is stopped gracefully
 * (`stop(grace)`), then removed with grace period 0; a pod removed outright is stopped.
 *
 * One pod incarnation = one uid: a pod recreated under the same name is started anew.
 */
import type { ObjectStore, StoreEvent } from './object-store.js';
import type { ResourceType } from './resources.js';
import type { KubeObject } from './types.js';

/** One started pod, as the kubelet drives it. */
export interface RunningPod {
  /** The pod's IP: its own loopback address. */
  readonly podIP: string;
  /** One readiness probe: true when the pod is ready. */
  ready(): Promise<boolean>;
  /** Resolves with the exit code once the process ends (null when ended by a signal). */
  readonly exited: Promise<number | null>;
  /** SIGTERM, SIGKILL after `graceSeconds`; resolves once exited. */
  stop(graceSeconds: number): Promise<void>;
}

/** The port a test passes in: how a pod's containers are run. */
export interface PodRunner {
  /** Starts the pod's containers (rejects when they cannot be started). */
  start(pod: KubeObject): Promise<RunningPod>;
  /** A container's output so far (`GET pods/<name>/log`); undefined when there is none. */
  containerLog?(namespace: string, pod: string, container: string): string | undefined;
}

interface Slot {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  running: RunningPod | undefined;
  restarts: number;
  ready: boolean | undefined;
  stopping: boolean;
  gone: boolean;
  timer: NodeJS.Timeout | undefined;
  startedAt: string;
  /** How the last run ended (containerStatuses[].lastState.terminated). */
  lastExit: { exitCode: number; finishedAt: string } | undefined;
  /** The runner's start in progress (a stop waits for it, then stops what it started). */
  starting: Promise<RunningPod> | undefined;
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

interface PodSpecView {
  containers?: { name: string; image?: string }[];
  restartPolicy?: string;
}

function podStatus(pod: KubeObject, slot: Slot, state: 'running' | 'terminated' | 'waiting', exitCode?: number | null): Record<string, unknown> {
  const spec = (pod.spec ?? {}) as PodSpecView;
  const ready = state === 'running' && slot.ready === true;
  const old = (pod.status ?? {}) as { conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
  const cond = (type: string, value: boolean): Record<string, unknown> => {
    const status = value ? 'True' : 'False';
    const prev = old.conditions?.find((c) => c.type === type);
    return { type, status, lastProbeTime: null, lastTransitionTime: prev?.status === status ? prev.lastTransitionTime : now() };
  };
  const restartPolicy = spec.restartPolicy ?? 'Always';
  const phase = state === 'waiting' && slot.restarts === 0
    ? 'Pending'
    : state !== 'terminated' || restartPolicy === 'Always' ? 'Running' : exitCode === 0 ? 'Succeeded' : 'Failed';
  const containerState = state === 'running'
    ? { running: { startedAt: slot.startedAt } }
    : state === 'terminated'
      ? { terminated: { exitCode: exitCode ?? 137, reason: exitCode === 0 ? 'Completed' : 'Error', finishedAt: now() } }
      : { waiting: { reason: slot.restarts === 0 ? 'ContainerCreating' : 'CrashLoopBackOff' } };
  const lastState = slot.lastExit === undefined
    ? {}
    : { terminated: { exitCode: slot.lastExit.exitCode, reason: slot.lastExit.exitCode === 0 ? 'Completed' : 'Error', finishedAt: slot.lastExit.finishedAt } };
  return {
    phase,
    conditions: [cond('PodScheduled', true), cond('Initialized', true), cond('ContainersReady', ready), cond('Ready', ready)],
    hostIP: '127.0.0.1',
    podIP: slot.running?.podIP,
    podIPs: slot.running === undefined ? [] : [{ ip: slot.running.podIP }],
    startTime: slot.startedAt,
    containerStatuses: (spec.containers ?? []).map((c) => ({
      name: c.name, image: c.image ?? '', imageID: `kvstore-test://${c.image ?? ''}`, containerID: `kvstore-test://${slot.uid}/${c.name}`,
      ready, started: state === 'running', restartCount: slot.restarts, state: containerState, lastState,
    })),
  };
}

/** Runs the kubelet over the store's pods; answers the stop function (stops every pod it started). */
export function runKubelet(store: ObjectStore, runner: PodRunner, opts: { readonly probeIntervalMs: number }): () => Promise<void> {
  const podType = store.registry.lookup('', 'v1', 'pods') as ResourceType;
  const slots = new Map<string, Slot>();
  let closed = false;

  const current = (slot: Slot): KubeObject | undefined => {
    const pod = store.get(podType, slot.namespace, slot.name);
    return pod?.metadata.uid === slot.uid ? pod : undefined;
  };
  const writeStatus = (slot: Slot, state: 'running' | 'terminated' | 'waiting', exitCode?: number | null): void => {
    const pod = current(slot);
    if (pod === undefined || closed) return;
    store.update(podType, slot.namespace, slot.name, { ...pod, status: podStatus(pod, slot, state, exitCode) }, 'status');
  };
  const probe = async (slot: Slot): Promise<void> => {
    if (slot.running === undefined || slot.stopping || slot.gone) return;
    const ready = await slot.running.ready().catch(() => false);
    if (ready !== slot.ready && !slot.stopping && !slot.gone) {
      slot.ready = ready;
      writeStatus(slot, 'running');
    }
    if (!slot.stopping && !slot.gone && !closed) slot.timer = setTimeout(() => void probe(slot), opts.probeIntervalMs);
  };
  const start = async (slot: Slot): Promise<void> => {
    const pod = current(slot);
    if (pod === undefined || slot.stopping || closed) return;
    let running: RunningPod;
    try {
      slot.starting = runner.start(pod);
      running = await slot.starting;
    } catch (err) {
      process.emitWarning(`kubelet: pod ${slot.namespace}/${slot.name} did not start: ${(err as Error).message}`);
      if (((pod.spec ?? {}) as PodSpecView).restartPolicy === 'Never') {
        // An init container (or the start) failed and the pod is never restarted: Failed.
        writeStatus(slot, 'terminated', 1);
        return;
      }
      writeStatus(slot, 'waiting');
      if (!slot.stopping && !closed) slot.timer = setTimeout(() => void start(slot), 1000);
      return;
    } finally {
      slot.starting = undefined;
    }
    if (slot.stopping || slot.gone || closed) {
      await running.stop(0);
      return;
    }
    slot.running = running;
    slot.ready = false;
    slot.startedAt = now();
    writeStatus(slot, 'running');
    void running.exited.then((code) => {
      if (slot.running !== running) return;
      slot.running = undefined;
      if (slot.timer !== undefined) clearTimeout(slot.timer);
      if (slot.stopping || slot.gone || closed) return;
      slot.ready = false;
      writeStatus(slot, 'terminated', code);
      const policy = ((current(slot)?.spec ?? {}) as PodSpecView).restartPolicy ?? 'Always';
      if (policy === 'Always' || (policy === 'OnFailure' && code !== 0)) {
        // CrashLoopBackOff: 1 s, 2 s, 4 s … at most 10 s (the kubelet's 10 s … 5 min, shortened).
        slot.lastExit = { exitCode: code ?? 137, finishedAt: now() };
        slot.restarts += 1;
        writeStatus(slot, 'waiting');
        slot.timer = setTimeout(() => void start(slot), Math.min(1000 * 2 ** (slot.restarts - 1), 10_000));
      }
    });
    void probe(slot);
  };
  const stop = async (slot: Slot, grace: number): Promise<void> => {
    slot.stopping = true;
    if (slot.timer !== undefined) clearTimeout(slot.timer);
    const started = slot.running ?? (await slot.starting?.catch(() => undefined));
    await started?.stop(grace);
    slot.running = undefined;
  };
  const onEvent = (e: StoreEvent): void => {
    if (e.typeKey !== '/pods' || closed) return;
    const uid = e.object.metadata.uid ?? '';
    let slot = slots.get(uid);
    if (e.type === 'DELETED') {
      if (slot !== undefined) {
        slot.gone = true;
        slots.delete(uid);
        void stop(slot, 0);
      }
      return;
    }
    if (slot === undefined) {
      if (e.object.metadata.deletionTimestamp !== undefined) return;
      slot = {
        uid, namespace: e.object.metadata.namespace ?? 'default', name: e.object.metadata.name ?? '',
        running: undefined, restarts: 0, ready: undefined, stopping: false, gone: false, timer: undefined, startedAt: now(), starting: undefined, lastExit: undefined,
      };
      slots.set(uid, slot);
      const s = slot;
      setImmediate(() => void start(s));
      return;
    }
    if (e.object.metadata.deletionTimestamp !== undefined && !slot.stopping) {
      const s = slot;
      const grace = e.object.metadata.deletionGracePeriodSeconds ?? 30;
      void stop(s, grace).then(() => {
        if (!closed) store.delete(podType, s.namespace, s.name, { gracePeriodSeconds: 0, preconditions: { uid: s.uid } });
      });
    }
  };
  const unsubscribe = store.subscribe(onEvent);
  return async () => {
    closed = true;
    unsubscribe();
    await Promise.all([...slots.values()].map((s) => stop(s, 10)));
    slots.clear();
  };
}
