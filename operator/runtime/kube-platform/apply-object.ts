/**
 * Create-or-update of one owned object, idempotent and quiet: the desired object carries the
 * annotation `kvstore.io/desired-hash` (SHA-256 of its desired JSON); an existing object with
 * the same hash is left alone (no write, so no watch event and no pass triggered by our own
 * no-op), one with another hash gets the desired labels, annotations, owner references and
 * `spec` (a replace at the read resourceVersion: a 409 re-reads and tries again, up to 3 times).
 * Fields the API server or other controllers own (status, a Service's clusterIP, …) are kept
 * from the stored object: only `spec` keys the desired object names are replaced.
 */
import { createHash } from 'node:crypto';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';
import { refOf, type KubeClient, type KubeObject } from '../kube/types.js';

export const DESIRED_HASH_ANNOTATION = 'kvstore.io/desired-hash';

type WithSpec = KubeObject & { readonly spec?: Readonly<Record<string, unknown>> };

export function desiredHash(object: unknown): string {
  return createHash('sha256').update(JSON.stringify(object)).digest('hex').slice(0, 32);
}

function withHash<T extends WithSpec>(desired: T): T {
  const hash = desiredHash(desired);
  return { ...desired, metadata: { ...desired.metadata, annotations: { ...desired.metadata.annotations, [DESIRED_HASH_ANNOTATION]: hash } } };
}

function describe(o: KubeObject): string {
  return `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

function pick(spec: Readonly<Record<string, unknown>>, keys: readonly string[] | undefined): Record<string, unknown> {
  if (keys === undefined) return { ...spec };
  return Object.fromEntries(Object.entries(spec).filter(([k]) => keys.includes(k)));
}

/**
 * Creates `desired` or brings the stored object to it (see the file header). With
 * `mutableSpecKeys`, only those spec keys are updated (a StatefulSet's selector, serviceName
 * and claim templates cannot change).
 */
export async function applyObject<T extends WithSpec>(kube: KubeClient, desiredIn: T, mutableSpecKeys?: readonly string[]): Promise<PortResult<T>> {
  const desired = withHash(desiredIn);
  const hash = desired.metadata.annotations?.[DESIRED_HASH_ANNOTATION];
  for (let attempt = 0; attempt < 3; attempt++) {
    const got = await kube.get<T>(refOf(desired));
    if (!got.ok && got.error.kind !== 'NotFound') return portFail(`read ${describe(desired)}: ${got.error.message}`);
    if (!got.ok) {
      const created = await kube.create<T>(desired);
      if (created.ok) return portOk(created.value);
      if (created.error.kind === 'AlreadyExists') continue;
      return portFail(`create ${describe(desired)}: ${created.error.message}`);
    }
    const stored = got.value;
    if (stored.metadata.annotations?.[DESIRED_HASH_ANNOTATION] === hash) return portOk(stored);
    const next = {
      ...stored,
      metadata: {
        ...stored.metadata,
        labels: { ...stored.metadata.labels, ...desired.metadata.labels },
        annotations: { ...stored.metadata.annotations, ...desired.metadata.annotations },
        ...(desired.metadata.ownerReferences === undefined ? {} : { ownerReferences: desired.metadata.ownerReferences }),
      },
      spec: { ...stored.spec, ...pick(desired.spec ?? {}, mutableSpecKeys) },
    } as T;
    const replaced = await kube.replace<T>(next);
    if (replaced.ok) return portOk(replaced.value);
    if (replaced.error.kind === 'Conflict' || replaced.error.kind === 'NotFound') continue;
    return portFail(`update ${describe(desired)}: ${replaced.error.message}`);
  }
  return portFail(`update ${describe(desired)}: conflicts on every attempt`);
}
