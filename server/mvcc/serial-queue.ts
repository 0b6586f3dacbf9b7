/**
 * Runs async tasks one after another, in submission order. The store passes its backend
 * writes (flushes) and the moments that need "no flush in flight" (hash views, the start
 * of a compaction's backend pass) through one queue. A failed task rejects its own promise
 * only; the tasks after it still run.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined, // the failure is reported to the caller of `run` through `result`
    );
    return result;
  }

  /** Resolves once every task submitted so far has settled. */
  idle(): Promise<void> {
    return this.tail;
  }
}
