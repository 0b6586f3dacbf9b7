/**
 * Open server bugs the simulation has found, each with seeds that reproduce it:
 * regressions.test.ts replays them and FAILS until the bug is fixed; the seed sweep
 * (cluster.sim.test.ts) lists failures it attributes to an open bug separately instead of
 * failing on them, so that it keeps reporting new problems. A failure is attributed when
 * its seed is listed, or when the bug's `explains` accepts every violation it reports (a
 * bug that shows in many seeds). When the fix is in, move the seeds to the fixed entries of
 * regressions.test.ts and remove the entry.
 */
export interface KnownBug {
  readonly id: string;
  readonly summary: string;
  /** Seeds of the default scenario that fail because of it (replayed by regressions.test.ts). */
  readonly seeds: readonly number[];
  /** Whether a violation reported by a failing run is a symptom of this bug. */
  readonly explains?: (violation: string) => boolean;
}

export const KNOWN_BUGS: readonly KnownBug[] = [];

/** The open bug a failing run of `seed` with these violations shows, if any. */
export function knownBugOf(seed: number, violations: readonly string[]): KnownBug | undefined {
  return KNOWN_BUGS.find((b) => b.seeds.includes(seed) || (b.explains !== undefined && violations.length > 0 && violations.every(b.explains)));
}
