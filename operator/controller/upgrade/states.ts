/**
 * Which upgrade states mean "a change is under way" (status.upgrade.state). Completed and
 * RolledBack are terminal; every other state is resumed from status on the next pass. Pure.
 */
import type { UpgradeState } from '../../api/types.js';

export const ACTIVE_STATES: ReadonlySet<UpgradeState> = new Set<UpgradeState>(['Snapshotting', 'Rehearsing', 'UpgradingMembers', 'WaitingV2', 'Finalizing', 'RollingBack', 'Blocked']);

export function isActiveState(state: UpgradeState | undefined): boolean {
  return state !== undefined && ACTIVE_STATES.has(state);
}
