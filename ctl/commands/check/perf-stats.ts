/**
 * Latency statistics of `check perf`: requests per second over the whole run, slowest request
 * and standard deviation in seconds, and the count of each error text.
 */
export class PerfStats {
  private readonly latencies: number[] = [];
  readonly errors = new Map<string, number>();

  record(seconds: number, error?: string): void {
    if (error === undefined) this.latencies.push(seconds);
    else this.errors.set(error, (this.errors.get(error) ?? 0) + 1);
  }

  /** Successful requests per second over `elapsedSeconds`. */
  rps(elapsedSeconds: number): number {
    return elapsedSeconds <= 0 ? 0 : this.latencies.length / elapsedSeconds;
  }

  get slowest(): number {
    return this.latencies.reduce((m, x) => Math.max(m, x), 0);
  }

  get stddev(): number {
    const n = this.latencies.length;
    if (n === 0) return 0;
    const mean = this.latencies.reduce((a, b) => a + b, 0) / n;
    return Math.sqrt(this.latencies.reduce((a, x) => a + (x - mean) ** 2, 0) / n);
  }
}
