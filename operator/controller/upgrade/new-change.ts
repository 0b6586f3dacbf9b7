/**
 * A version change with no upgrade under way: the members all run one version (`current`, the
 * lowest when mixed) and spec.version differs. Decides: nothing to do (undefined), a refusal
 * (invalid path; a downgrade below the floor — the higher of status.downgradeFloor and the cluster
 * version the members report — names the pre-upgrade snapshot and how to restore it), a start
 * (Snapshotting), or, when the members are mixed without an upgrade record (status lost) and
 * spec.version is the lowest version they run, a rollback of the others. Pure.
 */
import type { UpgradeStatus } from '../../api/types.js';
import { maxRevision, memberVersion, type PlanContext } from '../context.js';
import { normal, type Step } from '../step.js';
import { compareVersions, lowestVersion, minorOf, parseMinor, parseVersion, type Semver } from './version.js';
import { validatePath, type PathFacts } from './path.js';
import { refusal } from './refusal.js';
import { restoreHint } from './snapshot.js';
import { clusterVersion } from '../status/members.js';
import { startUpgrade } from './start.js';
import { redirect } from './redirect.js';

export function pathFacts(ctx: PlanContext): PathFacts {
  const probes = ctx.slots.flatMap((m) => (m.probe === undefined ? [] : [m.probe]));
  const sizes = probes.flatMap((p) => (p.v2StoreBytes === undefined ? [] : [p.v2StoreBytes]));
  return {
    authEnabled: probes.some((p) => p.authEnabled === true) ? true : probes.some((p) => p.authEnabled === undefined) ? undefined : false,
    v2StoreBytes: sizes.length === 0 ? undefined : Math.max(...sizes),
    revision: maxRevision(ctx.slots),
  };
}

/** The line below which spec.version may not go: max(status.downgradeFloor, reported cluster version). */
export function downgradeFloor(ctx: PlanContext): Semver | undefined {
  const lines = [ctx.prev?.downgradeFloor ?? '', ...ctx.slots.map((m) => m.probe?.clusterVersion ?? '')]
    .flatMap((t) => {
      const v = parseMinor(t);
      return v === undefined ? [] : [v];
    });
  return lines.reduce<Semver | undefined>((a, v) => (a === undefined || compareVersions(v, a) > 0 ? v : a), undefined);
}

export function planNew(ctx: PlanContext): Step | undefined {
  const want = ctx.spec.version;
  const versions = [...new Set(ctx.slots.map(memberVersion).filter((v) => v !== ''))];
  const current = lowestVersion(versions);
  if (current === undefined) return undefined;
  if (versions.length === 1 && current === want) return undefined;
  const wantV = parseVersion(want);
  const currentV = parseVersion(current) as Semver;
  if (wantV === undefined) return refusal(ctx, 'UnsupportedVersion', `spec.version ${JSON.stringify(want)} is not a version (3.<minor>.<patch>)`);
  const highest = versions.find((v) => v !== current && !versions.some((o) => compareVersions(parseVersion(o) as Semver, parseVersion(v) as Semver) > 0));
  if (versions.length > 1 && want === current && highest !== undefined) {
    const up: UpgradeStatus = {
      from: current,
      to: highest,
      state: 'RollingBack',
      membersDone: ctx.slots.filter((m) => memberVersion(m) === highest).map((m) => m.name),
      startedAt: ctx.now,
    };
    return redirect(ctx, up, 'back', [normal('RollbackStarted', `members run ${versions.join(' and ')} with no upgrade record: rolling ${up.membersDone.join(', ')} back to ${current}, leader last`)]);
  }
  if (compareVersions(wantV, currentV) < 0) {
    const floor = downgradeFloor(ctx);
    const sameLine = wantV.major === currentV.major && wantV.minor === currentV.minor;
    if (!sameLine || (floor !== undefined && compareVersions(wantV, floor) < 0)) {
      const floorText = floor === undefined ? minorOf(currentV) : minorOf(floor);
      const reported = clusterVersion(ctx.observed) || 'unknown';
      const message = `spec.version ${want} is below the downgrade floor ${floorText} (the members run ${current}, cluster version ${reported}): ` +
        `after a completed upgrade a downgrade in place is impossible; nothing was changed. To go back, ${restoreHint(ctx.prev?.upgrade?.snapshot?.file)}`;
      return refusal(ctx, 'DowngradeRefused', message, 'DowngradeRefused');
    }
  }
  const verdict = validatePath(current, want, pathFacts(ctx));
  if (!verdict.ok) return refusal(ctx, verdict.reason, verdict.message);
  return startUpgrade(ctx, { from: current, to: want, state: 'Snapshotting', membersDone: ctx.slots.filter((m) => memberVersion(m) === want).map((m) => m.name), startedAt: ctx.now }, 'new');
}
