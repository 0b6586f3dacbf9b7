/**
 * Starting an upgrade and its snapshot phase. Before any member is touched: the gates, then a
 * TakeSnapshot from the leader (state Snapshotting). The next pass reads the outcome:
 * ok → recorded in status.upgrade.snapshot (SnapshotTaken), then the rehearsal starts in the same
 * pass (rehearsal.ts; with spec.upgrade.rehearsal false, the first member); failed → Blocked (SnapshotFailed, a Warning event), retried after
 * SNAPSHOT_RETRY_SECONDS; no outcome (the operator restarted meanwhile) → taken again. Pure.
 */
import type { UpgradeStatus } from '../../api/types.js';
import { leadersOf, type PlanContext } from '../context.js';
import { carried, normal, verdict, warning, type Step } from '../step.js';
import { checkGates } from './gates.js';
import { afterSnapshot } from './rehearsal.js';
import { outcomeFor, takeSnapshot } from './snapshot.js';

export const SNAPSHOT_RETRY_SECONDS = 60;
/** Re-observe this often while the cluster is not healthy enough to start. */
export const START_POLL_SECONDS = 10;

/**
 * `new`: `up` is a fresh record (state Snapshotting); `retry`: after a failed snapshot;
 * `again`: the outcome of an earlier TakeSnapshot was lost (operator restart).
 */
export function startUpgrade(ctx: PlanContext, up: UpgradeStatus, mode: 'new' | 'retry' | 'again'): Step {
  const gate = checkGates(ctx);
  const leader = leadersOf(ctx.slots)[0];
  if (!gate.ok || leader === undefined) {
    const why = gate.ok ? 'no leader' : gate.message;
    const message = `the upgrade ${up.from} → ${up.to} waits for a healthy cluster before the snapshot: ${why}`;
    return {
      actions: [],
      events: [],
      ...(mode === 'new' ? carried(ctx) : { upgrade: up, downgradeFloor: ctx.prev?.downgradeFloor }),
      progressing: verdict('True', gate.ok ? 'NoSingleLeader' : gate.reason, message),
      requeueAfterSeconds: START_POLL_SECONDS,
    };
  }
  const { reason: _r, ...rest } = up;
  const next: UpgradeStatus = { ...rest, state: 'Snapshotting' };
  const action = takeSnapshot(ctx.name, next, leader, ctx.now);
  const file = action.kind === 'TakeSnapshot' ? action.file : '';
  const events =
    mode === 'new'
      ? [normal('UpgradeStarted', `rolling upgrade ${up.from} → ${up.to} started: snapshot ${file} from the leader ${leader.name} first, then the followers one at a time, the leader last`)]
      : mode === 'retry'
        ? [normal('SnapshotRetry', `retrying the pre-upgrade snapshot from the leader ${leader.name} into ${file}`)]
        : [];
  return {
    actions: [action],
    events,
    upgrade: next,
    downgradeFloor: ctx.prev?.downgradeFloor,
    progressing: verdict('True', 'Snapshotting', `taking the pre-upgrade snapshot ${file} from the leader ${leader.name}`),
    requeueAfterSeconds: START_POLL_SECONDS,
  };
}

export function snapshotStep(ctx: PlanContext, up: UpgradeStatus): Step {
  const outcome = outcomeFor(ctx.observed, up);
  if (outcome === undefined) return startUpgrade(ctx, up, 'again');
  if (outcome.ok) {
    const r = outcome.record;
    const taken = normal('SnapshotTaken', `snapshot ${r.file} taken from the leader ${r.member}: revision ${r.revision}, ${r.size} bytes, sha256 ${r.sha256}`);
    return afterSnapshot(ctx, { ...up, snapshot: r }, [taken]);
  }
  const message = `the pre-upgrade snapshot from the leader failed (${outcome.error}); no member was touched; retrying in ${SNAPSHOT_RETRY_SECONDS}s`;
  return {
    actions: [],
    events: [warning('UpgradeBlocked', message)],
    upgrade: { ...up, state: 'Blocked', reason: `snapshot failed: ${outcome.error}` },
    downgradeFloor: ctx.prev?.downgradeFloor,
    progressing: verdict('False', 'SnapshotFailed', message),
    blocked: verdict('True', 'SnapshotFailed', message),
    requeueAfterSeconds: SNAPSHOT_RETRY_SECONDS,
  };
}
