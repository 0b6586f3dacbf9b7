/**
 * How a pod's kvstore container becomes a local command line, before addresses are mapped:
 * the container's env (values and fieldRefs to the pod's name, namespace, uid, IP, labels),
 * `$(VAR)` expansion in args and env as the kubelet does it, volume mount paths replaced by
 * host directories, the image tag as KVSTORE_SERVER_VERSION, and the readiness probe's target
 * (httpGet, or tcpSocket: a TCP connect).
 * Pure: host directories and the pod IP are inputs.
 */
import { containerArgv, imageExecutable, type ImageExecutable, type ImageProcess } from './image-entrypoint.js';
import type { KubeObject } from './types.js';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath?: string } };
}

interface Probe {
  httpGet?: { path?: string; port?: number | string; scheme?: string };
  tcpSocket?: { port?: number | string };
}

/** The container fields used. */
export interface ContainerView {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  ports?: { name?: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; subPath?: string }[];
  readinessProbe?: Probe;
}

/** A pod volume: where it lives on this machine. */
export interface VolumeView {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  emptyDir?: unknown;
  secret?: { secretName: string };
}

/** What to run for a pod (URLs not yet mapped). */
export interface ContainerCommand {
  readonly container: ContainerView;
  /** The executable the container runs (image-entrypoint.ts: the container's command, else the image's ENTRYPOINT). */
  readonly executable: ImageExecutable;
  /** Its arguments (the rest of the command or ENTRYPOINT, then args or the image's CMD). */
  readonly args: string[];
  readonly env: Record<string, string>;
  /** Readiness probe: container port and path, or a TCP connect (`tcp`); undefined: no probe given. */
  readonly readiness: { readonly port: number; readonly path: string; readonly tcp?: boolean } | undefined;
}

/** The kvstore container: the one named `kvstore`, else the first. */
/** The pod's init containers, in order. */
export function initContainers(pod: KubeObject): ContainerView[] {
  return ((pod.spec ?? {}) as { initContainers?: ContainerView[] }).initContainers ?? [];
}

export function kvstoreContainer(pod: KubeObject): ContainerView | undefined {
  const containers = ((pod.spec ?? {}) as { containers?: ContainerView[] }).containers ?? [];
  return containers.find((c) => c.name === 'kvstore') ?? containers[0];
}

/** `3.5.0` from `kvstore/kvstore:3.5.0` (undefined without a version tag). */
export function versionOfImage(image: string | undefined): string | undefined {
  if (image === undefined) return undefined;
  const tag = image.slice(image.lastIndexOf('/') + 1).split(':')[1]?.split('@')[0];
  return tag !== undefined && /^v?\d+\.\d+\.\d+/.test(tag) ? tag.replace(/^v/, '') : undefined;
}

function fieldOf(pod: KubeObject, path: string, podIP: string): string {
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m !== null) return (m[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations)?.[m[2] ?? ''] ?? '';
  switch (path) {
    case 'metadata.name': return pod.metadata.name ?? '';
    case 'metadata.namespace': return pod.metadata.namespace ?? '';
    case 'metadata.uid': return pod.metadata.uid ?? '';
    case 'status.podIP': return podIP;
    case 'status.hostIP': return '127.0.0.1';
    case 'spec.nodeName': return 'kube-test-node';
    case 'spec.serviceAccountName': return String((pod.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName ?? 'default');
    default: return '';
  }
}

/** `$(VAR)` → value of VAR when defined; `$$(VAR)` → `$(VAR)`; unknown references stay. */
export function expand(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(/\$\$\(|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, name: string | undefined) => {
    if (name === undefined) return '$(';
    return env[name] ?? all;
  });
}

/**
 * Replaces mount paths (each as a whole path prefix) by their host directories, in one pass: a
 * host directory put in is never rewritten again (a `/tmp` mount must not touch `/tmp/…` host
 * paths), and the longest mount path wins (`/data/wal` over `/data`).
 */
export function replaceMounts(text: string, mounts: readonly { mountPath: string; hostPath: string }[]): string {
  if (mounts.length === 0) return text;
  const byPath = new Map(mounts.map((m) => [m.mountPath.replace(/\/+$/, ''), m.hostPath]));
  const alternatives = [...byPath.keys()].sort((a, b) => b.length - a.length).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(`(^|[=,:\\s])(${alternatives.join('|')})(?=$|[/,:\\s])`, 'g');
  return text.replace(re, (_all, lead: string, path: string) => `${lead}${byPath.get(path) ?? path}`);
}

/**
 * The command of the pod's kvstore container. `hostPathOf(volume)` is where a volume lives here
 * (undefined: a volume kind not supported, mounted nowhere).
 */
export function containerCommand(
  pod: KubeObject,
  podIP: string,
  hostPathOf: (v: VolumeView) => string | undefined,
  which?: ContainerView,
  image?: (ref: string | undefined) => ImageProcess | undefined,
): ContainerCommand | { error: string } {
  const container = which ?? kvstoreContainer(pod);
  if (container === undefined) return { error: 'the pod has no container' };
  const [argv0, ...rest] = containerArgv(image?.(container.image), container.command, container.args);
  const executable = imageExecutable(argv0);
  if (executable === undefined) {
    return { error: `container ${container.name} runs ${JSON.stringify(argv0 ?? '')}, which image ${container.image ?? '(none)'} does not hold (its executables: kvstore, kvstorectl, kvstore-operator, node)` };
  }
  const volumes = ((pod.spec ?? {}) as { volumes?: VolumeView[] }).volumes ?? [];
  const mounts: { mountPath: string; hostPath: string }[] = [];
  for (const vm of container.volumeMounts ?? []) {
    const v = volumes.find((x) => x.name === vm.name);
    const host = v === undefined ? undefined : hostPathOf(v);
    if (host !== undefined) mounts.push({ mountPath: vm.mountPath, hostPath: vm.subPath !== undefined ? `${host}/${vm.subPath}` : host });
  }
  const env: Record<string, string> = {};
  for (const e of container.env ?? []) {
    const raw = e.valueFrom?.fieldRef?.fieldPath !== undefined ? fieldOf(pod, e.valueFrom.fieldRef.fieldPath, podIP) : expand(e.value ?? '', env);
    env[e.name] = replaceMounts(raw, mounts);
  }
  const version = versionOfImage(container.image);
  if (version !== undefined) env.KVSTORE_SERVER_VERSION = version;
  const args = rest.map((a) => replaceMounts(expand(a, env), mounts));
  const get = container.readinessProbe?.httpGet;
  const tcp = container.readinessProbe?.tcpSocket;
  const portOf = (p: number | string | undefined): number => (typeof p === 'number' ? p : (container.ports ?? []).find((x) => x.name === p)?.containerPort ?? Number(p));
  let readiness: ContainerCommand['readiness'];
  if (get !== undefined) readiness = { port: portOf(get.port), path: get.path ?? '/' };
  else if (tcp !== undefined) readiness = { port: portOf(tcp.port), path: '', tcp: true };
  return { container, executable, args, env, readiness };
}
