/**
 * Which data claim each member ran with, so a member whose claim was replaced (deleted and
 * recreated empty by the StatefulSet controller) is known to have lost its data. Kept on the
 * StatefulSet as the annotation `kvstore.io/member-claims`: JSON `{ "<pod>": "<claim uid>" }`.
 *
 * - a running pod (not being deleted) whose claim `data-<pod>` exists (not being deleted) and
 *   has no entry gets one (`toRecord`);
 * - a slot with an entry whose claim is now another uid, or gone, has lost its data (`lostPods`);
 * - the entry of a slot is dropped when the operator resets it (the claim is replaced on
 *   purpose) and for ordinals a scale change creates or removes (`keepBelow`).
 * Pure, except `writeRecord` (one merge patch of the StatefulSet's annotation).
 */
import { DATA_VOLUME } from '../../controller/builders/names.js';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';
import type { KubeClient, KubeObject, ObjectRef } from '../kube/types.js';

export const CLAIMS_ANNOTATION = 'kvstore.io/member-claims';

export type ClaimRecord = Readonly<Record<string, string>>;

export const claimOf = (pod: string): string => `${DATA_VOLUME}-${pod}`;

/** The record in `annotations` ({} when absent or unreadable). */
export function parseRecord(annotations: Readonly<Record<string, string>> | undefined): ClaimRecord {
  const text = annotations?.[CLAIMS_ANNOTATION];
  if (text === undefined) return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {}; // edited by hand into something else: start recording again
  }
}

/** Live claims (not being deleted) by name → uid. */
export function liveClaims(claims: readonly KubeObject[]): ReadonlyMap<string, string> {
  return new Map(claims.filter((c) => c.metadata.deletionTimestamp === undefined && c.metadata.uid !== undefined).map((c) => [c.metadata.name, c.metadata.uid ?? '']));
}

/** Entries to add: `running` pods whose live claim is not recorded yet. */
export function toRecord(record: ClaimRecord, claims: ReadonlyMap<string, string>, running: readonly string[]): ClaimRecord {
  const add: Record<string, string> = {};
  for (const pod of running) {
    const uid = claims.get(claimOf(pod));
    if (record[pod] === undefined && uid !== undefined) add[pod] = uid;
  }
  return add;
}

/** Pods whose recorded claim is replaced or gone. */
export function lostPods(record: ClaimRecord, claims: ReadonlyMap<string, string>): ReadonlySet<string> {
  return new Set(Object.entries(record).filter(([pod, uid]) => claims.get(claimOf(pod)) !== uid).map(([pod]) => pod));
}

/** The record without the entries whose ordinal (`<cluster>-<n>`) is `n >= limit`. */
export function keepBelow(record: ClaimRecord, cluster: string, limit: number): ClaimRecord {
  return Object.fromEntries(Object.entries(record).filter(([pod]) => Number(pod.slice(cluster.length + 1)) < limit));
}

/** Writes `record` as the StatefulSet's annotation (a merge patch). */
export async function writeRecord(kube: KubeClient, sts: ObjectRef, record: ClaimRecord): Promise<PortResult<void>> {
  const r = await kube.mergePatch(sts, { metadata: { annotations: { [CLAIMS_ANNOTATION]: JSON.stringify(record) } } });
  return r.ok ? portOk(undefined) : portFail(`record member claims on StatefulSet ${sts.name}: ${r.error.message}`);
}
