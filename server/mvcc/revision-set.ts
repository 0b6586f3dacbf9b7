/**
 * A set of revisions (main, sub) held as numbers: what a compaction keeps, asked once per
 * backend record of the compacted range (a million lookups for a million-key store).
 *
 * Most main revisions carry one change, so the first sub of each main lives in a Map of
 * numbers; the other subs of a multi-change transaction go to a second Map of sets. No bigint
 * and no object per revision (a Set of revisionId bigints hashed and allocated per lookup).
 * Pure module.
 */
export class RevisionSet {
  private readonly first = new Map<number, number>();
  private readonly more = new Map<number, Set<number>>();

  add(main: number, sub: number): void {
    const known = this.first.get(main);
    if (known === undefined) {
      this.first.set(main, sub);
    } else if (known !== sub) {
      let subs = this.more.get(main);
      if (subs === undefined) this.more.set(main, (subs = new Set()));
      subs.add(sub);
    }
  }

  has(main: number, sub: number): boolean {
    const known = this.first.get(main);
    if (known === undefined) return false;
    return known === sub || (this.more.get(main)?.has(sub) ?? false);
  }
}
