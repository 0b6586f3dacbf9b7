/** A failed simulation run: its seed, every reason found, and the trace leading to it. */
export class SimFailure extends Error {
  constructor(
    readonly seed: number,
    readonly reasons: readonly string[],
    readonly traceTail: readonly string[],
  ) {
    super(`seed ${seed}: ${reasons[0] ?? 'failure'}`);
  }

  /** The failure as a report: seed, every reason, and the last trace lines. */
  report(traceLines = 60): string {
    return [
      `SIMULATION FAILED — seed ${this.seed} (replay: SIM_SEED=${this.seed} SIM_SEEDS=1)`,
      ...this.reasons.map((r) => `  ${r}`),
      `last ${Math.min(traceLines, this.traceTail.length)} trace lines:`,
      ...this.traceTail.slice(-traceLines).map((l) => `  ${l}`),
    ].join('\n');
  }
}
