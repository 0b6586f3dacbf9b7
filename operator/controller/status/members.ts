/**
 * The observed part of the status: members[] (every slot that exists, by ordinal), readyMembers
 * (`ready/size`, ready = /health true and a linearizable read answered), clusterVersion (the lowest
 * `etcdcluster` the reachable members report; '' when none answered). Pure.
 */
import type { MemberStatus } from '../../api/types.js';
import type { Observed } from '../model.js';
import { memberReady } from '../context.js';
import { compareVersions, parseMinor } from '../upgrade/version.js';

export function memberStatuses(observed: Observed, prev: readonly MemberStatus[] = [], now = observed.now): readonly MemberStatus[] {
  return [...observed.members]
    .filter((m) => m.exists)
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((m) => {
      const healthy = memberReady(m);
      const status: MemberStatus = {
        name: m.name,
        id: m.probe?.memberId ?? '',
        version: m.probe?.serverVersion ?? '',
        healthy,
        leader: m.probe?.isLeader === true,
        clientURL: m.clientURL,
      };
      if (healthy) return status;
      const before = prev.find((p) => p.name === m.name);
      return { ...status, unhealthySince: before !== undefined && !before.healthy && before.unhealthySince !== undefined ? before.unhealthySince : now };
    });
}

export function readyMembers(observed: Observed, size: number): string {
  const ready = observed.members.filter((m) => m.ordinal < size && memberReady(m)).length;
  return `${ready}/${size}`;
}

export function clusterVersion(observed: Observed): string {
  let best: { text: string; key: ReturnType<typeof parseMinor> } | undefined;
  for (const m of observed.members) {
    const text = m.probe?.clusterVersion ?? '';
    const key = parseMinor(text);
    if (key === undefined) continue;
    if (best?.key === undefined || compareVersions(key, best.key) < 0) best = { text, key };
  }
  return best?.text ?? '';
}
