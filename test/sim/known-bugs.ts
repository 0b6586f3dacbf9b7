/**
 * Open server bugs the simulation has found, each with the seeds that reproduce it:
 * regressions.test.ts replays them and FAILS until the bug is fixed; the seed sweep
 * (cluster.sim.test.ts) lists those seeds' failures separately instead of failing on them,
 * so that it keeps reporting new problems (a new seed that shows a known bug fails the
 * sweep until it is added here). When the fix is in, move the seeds to the fixed entries
 * of regressions.test.ts and remove the entry.
 */
export interface KnownBug {
  readonly id: string;
  readonly summary: string;
  /** Seeds of the default scenario that fail because of it. */
  readonly seeds: readonly number[];
}

export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    id: 'compaction-drops-unflushed-tombstone',
    summary:
      'a key deleted shortly before a compaction comes back after a crash: MvccStore.compact blanks the unflushed ' +
      'tombstone (unflushed.purge) while the older put is already in the backend; a flush persists scheduledCompactRev ' +
      'without the tombstone, and the crash comes before the background pass deleted the put — recovery re-runs the ' +
      'compaction, finds the put as the newest record and keeps the key live',
    seeds: [3806],
  },
];

/** The known bug `seed` reproduces, if any. */
export function knownBugOf(seed: number): KnownBug | undefined {
  return KNOWN_BUGS.find((b) => b.seeds.includes(seed));
}
