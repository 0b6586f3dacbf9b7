/**
 * One rule's decision for this pass, before it becomes a Plan: the actions, the events, the new
 * upgrade record and the condition verdicts the rule owns. status/build-status.ts turns a Step
 * plus the observation into the status written back. Pure data.
 */
import type { Phase, RestoreStatus, UpgradeStatus } from '../api/types.js';
import type { Action, PlannedEvent } from './model.js';

/** A condition the rule decides: status, CamelCase reason, a sentence for people. */
export interface Verdict {
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
}

export interface Step {
  readonly actions: readonly Action[];
  readonly events: readonly PlannedEvent[];
  /** The upgrade record to write (rules that do not touch upgrades pass the previous one on). */
  readonly upgrade: UpgradeStatus | undefined;
  readonly downgradeFloor: string | undefined;
  /** Progressing condition: True while the operator works towards the spec or waits on a gate. */
  readonly progressing: Verdict;
  /** UpgradeBlocked=True with this reason; absent = False. */
  readonly blocked?: Verdict;
  /** Degraded=True forced by the rule (e.g. a member health timeout); absent = from the observation. */
  readonly degraded?: Verdict;
  /** Phase the rule asks for where the observation alone cannot tell (Creating, Scaling; Pending: a restore refused or being checked). */
  readonly phase?: Extract<Phase, 'Creating' | 'Scaling' | 'Pending'>;
  /** The restore record to write (restore/with-restore.ts fills it from the previous status when a rule leaves it out). */
  readonly restore?: RestoreStatus;
  /** RestoreBlocked condition; absent = not written (a cluster that never restores). */
  readonly restoreBlocked?: Verdict;
  readonly requeueAfterSeconds?: number;
}

export function normal(reason: string, message: string): PlannedEvent {
  return { type: 'Normal', reason, message };
}

export function warning(reason: string, message: string): PlannedEvent {
  return { type: 'Warning', reason, message };
}

export function verdict(status: Verdict['status'], reason: string, message: string): Verdict {
  return { status, reason, message };
}

/** The fields a rule that does not touch upgrades passes on unchanged. */
export function carried(ctx: { readonly prev: { readonly upgrade?: UpgradeStatus; readonly downgradeFloor?: string } | undefined }): Pick<Step, 'upgrade' | 'downgradeFloor'> {
  return { upgrade: ctx.prev?.upgrade, downgradeFloor: ctx.prev?.downgradeFloor };
}
