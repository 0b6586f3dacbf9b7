/**
 * The rehearsal part of an observation: the platform's scratch member (RehearsalPlatform.observe)
 * and, while its process runs, what it answers: /health, Maintenance.Status (revision) and a
 * linearizable Range count_only (keys), asked in parallel under the observation's bound.
 *
 * Contract: no scratch member → undefined. Without a RehearsalPlatform (a platform that cannot
 * rehearse), a cluster in state Rehearsing is observed as a Failed rehearsal naming the problem
 * (fail safe: never a pass); a failure of the platform itself fails the observation.
 */
import type { KvstoreCluster } from '../api/types.js';
import type { RehearsalObservation } from './model.js';
import { portOk, type MemberAdmin, type PortResult, type RehearsalPlatform } from './ports.js';

export async function observeRehearsal(
  cluster: KvstoreCluster,
  port: RehearsalPlatform | undefined,
  admin: MemberAdmin,
  signal: AbortSignal,
): Promise<PortResult<RehearsalObservation | undefined>> {
  if (port === undefined) {
    const rec = cluster.status?.upgrade?.state === 'Rehearsing' ? cluster.status.upgrade.rehearsal : undefined;
    if (rec === undefined) return portOk(undefined);
    return portOk({ id: rec.id, phase: 'Failed', error: 'this platform cannot run upgrade rehearsals', logTail: '' });
  }
  const view = await port.observe(cluster, signal);
  if (!view.ok || view.value === undefined) return view as PortResult<undefined>;
  const v = view.value;
  const base = { id: v.id, logTail: v.logTail, ...(v.note === undefined ? {} : { note: v.note }), ...(v.expected === undefined ? {} : { expected: v.expected }), ...(v.error === undefined ? {} : { error: v.error }) };
  if (v.phase !== 'Running' || v.clientURL === '') return portOk({ ...base, phase: v.phase === 'Failed' ? 'Failed' : 'Starting' });
  const [health, status, keys] = await Promise.all([
    admin.health(v.clientURL, signal),
    admin.status(v.clientURL, signal),
    admin.keyCount(v.clientURL, signal),
  ]);
  const served = {
    healthy: health.ok && health.value,
    ...(status.ok ? { revision: status.value.revision } : {}),
    ...(keys.ok ? { keys: keys.value } : {}),
  };
  return portOk({ ...base, phase: 'Serving', served });
}
