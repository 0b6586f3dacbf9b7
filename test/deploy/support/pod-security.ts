/**
 * The Kubernetes Pod Security Standard "restricted" profile, checked on a pod template (the
 * kvstore-system namespace enforces it). Returns the violations, empty when the pod is admitted.
 * Covers the controls a workload template can break: non-root, no privilege escalation, all
 * capabilities dropped (only NET_BIND_SERVICE may be added), seccomp RuntimeDefault/Localhost,
 * no host namespaces/ports/paths, no privileged containers, restricted volume types.
 */

type Obj = Record<string, unknown>;

const ALLOWED_VOLUMES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

export function restrictedViolations(podSpec: Obj): string[] {
  const out: string[] = [];
  const podSc = obj(podSpec.securityContext);
  for (const k of ['hostNetwork', 'hostPID', 'hostIPC']) if (podSpec[k] === true) out.push(`${k} is true`);
  for (const v of list(podSpec.volumes)) {
    const type = Object.keys(v).find((k) => k !== 'name');
    if (type === undefined || !ALLOWED_VOLUMES.has(type)) out.push(`volume ${String(v.name)}: type ${type ?? '?'} not allowed`);
  }
  const containers = [...list(podSpec.initContainers), ...list(podSpec.containers)];
  for (const c of containers) {
    const name = String(c.name);
    const sc = obj(c.securityContext);
    if (sc.privileged === true) out.push(`${name}: privileged`);
    if (sc.allowPrivilegeEscalation !== false) out.push(`${name}: allowPrivilegeEscalation must be false`);
    const nonRoot = sc.runAsNonRoot ?? podSc.runAsNonRoot;
    if (nonRoot !== true) out.push(`${name}: runAsNonRoot must be true`);
    const uid = sc.runAsUser ?? podSc.runAsUser;
    if (uid === 0) out.push(`${name}: runAsUser 0`);
    const seccomp = obj(sc.seccompProfile ?? podSc.seccompProfile).type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') out.push(`${name}: seccompProfile must be RuntimeDefault or Localhost`);
    const caps = obj(sc.capabilities);
    const drop = Array.isArray(caps.drop) ? caps.drop : [];
    if (!drop.includes('ALL')) out.push(`${name}: capabilities must drop ALL`);
    const add = Array.isArray(caps.add) ? caps.add : [];
    if (add.some((a) => a !== 'NET_BIND_SERVICE')) out.push(`${name}: only NET_BIND_SERVICE may be added`);
    for (const p of list(c.ports)) if (p.hostPort !== undefined && p.hostPort !== 0) out.push(`${name}: hostPort`);
  }
  return out;
}
