/**
 * Open server bugs the simulation has found, each with the regression seeds that reproduce
 * it (regressions.test.ts replays them and FAILS until the bug is fixed) and the signature
 * its failure reports carry. The seed sweep (cluster.sim.test.ts) lists failures with a
 * known signature separately instead of failing on them, so that it keeps reporting new
 * problems. Remove an entry once its fix is in.
 */
export interface KnownBug {
  readonly id: string;
  readonly summary: string;
  /** Matches the failure report of a run that hit this bug (and nothing else). */
  readonly signature: RegExp;
  readonly seeds: readonly number[];
}

export const KNOWN_BUGS: readonly KnownBug[] = [];

/** The known bug a failure report shows, if any. */
export function knownBugOf(report: string): KnownBug | undefined {
  return KNOWN_BUGS.find((b) => b.signature.test(report));
}
