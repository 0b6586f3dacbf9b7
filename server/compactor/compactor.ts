/**
 * Auto-compaction decisions (pure: the caller passes time and revisions in).
 *
 * periodic, retention R: the revision is sampled every R/10 (at most every 6 minutes, as
 *   min(R, 1h)/10); the target is the newest sample at least R old, so history of the last
 *   R is kept. A target is compacted once.
 * revision, retention N: every 5 minutes the target is current − N (if positive and new).
 */
export type AutoCompaction =
  | { readonly mode: 'periodic'; readonly retentionMs: number }
  | { readonly mode: 'revision'; readonly retention: bigint };

const HOUR = 3_600_000;
const REVISION_INTERVAL_MS = 5 * 60_000;

export class Compactor {
  readonly #policy: AutoCompaction;
  readonly #samples: { at: number; revision: bigint }[] = [];
  #lastCompacted = 0n;
  #nextCheck: number;

  constructor(policy: AutoCompaction, nowMs: number) {
    this.#policy = policy;
    this.#nextCheck = nowMs + this.intervalMs;
  }

  /** How often `tick` should be called. */
  get intervalMs(): number {
    return this.#policy.mode === 'periodic' ? Math.max(1, Math.min(this.#policy.retentionMs, HOUR) / 10) : REVISION_INTERVAL_MS;
  }

  /** Records the current revision; returns a revision to compact to, or undefined. */
  tick(nowMs: number, currentRevision: bigint, compactRevision: bigint): bigint | undefined {
    if (this.#policy.mode === 'revision') {
      if (nowMs < this.#nextCheck) return undefined;
      this.#nextCheck = nowMs + REVISION_INTERVAL_MS;
      return this.#accept(currentRevision - this.#policy.retention, compactRevision);
    }
    this.#samples.push({ at: nowMs, revision: currentRevision });
    const cutoff = nowMs - this.#policy.retentionMs;
    let target: bigint | undefined;
    while (this.#samples.length > 0 && this.#samples[0]!.at <= cutoff) target = this.#samples.shift()!.revision;
    return target === undefined ? undefined : this.#accept(target, compactRevision);
  }

  /** A compaction to `target` happened (or was refused as already done). */
  #accept(target: bigint, compactRevision: bigint): bigint | undefined {
    if (target <= 1n || target <= compactRevision || target <= this.#lastCompacted) return undefined;
    this.#lastCompacted = target;
    return target;
  }
}
