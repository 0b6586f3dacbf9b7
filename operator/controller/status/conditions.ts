/**
 * Conditions as Kubernetes expects them: one per type in CONDITION_TYPES order, lastTransitionTime
 * changing only when the status flips (reason and message may change without it). A type with no
 * verdict in `wanted` is left out (RestoreBlocked, for clusters that never restore). Pure.
 */
import { CONDITION_TYPES, type Condition, type ConditionType } from '../../api/types.js';
import type { Verdict } from '../step.js';

export function mergeConditions(prev: readonly Condition[], wanted: Readonly<Partial<Record<ConditionType, Verdict>>>, now: string, generation: number): readonly Condition[] {
  return CONDITION_TYPES.flatMap((type) => {
    const v = wanted[type];
    if (v === undefined) return [];
    const old = prev.find((c) => c.type === type);
    const lastTransitionTime = old !== undefined && old.status === v.status ? old.lastTransitionTime : now;
    return [{ type, status: v.status, reason: v.reason, message: v.message, lastTransitionTime, observedGeneration: generation }];
  });
}
