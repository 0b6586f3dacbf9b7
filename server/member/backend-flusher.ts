/**
 * When the member writes its applied state to the backend (the WAL is the durable log, so these
 * writes are unsynced unless asked): FLUSH_DELAY_MS after the first unflushed apply, so that
 * answers to proposers go out first and one backend batch carries the changes of many entries;
 * concurrent calls coalesce into at most one more flush. Failures are fatal (`onFatal`).
 */
import type { Scheduler } from './scheduler.js';

const FLUSH_DELAY_MS = 10;

export interface FlusherDeps {
  readonly scheduler: Scheduler;
  /** One backend write of everything applied so far (synced when asked). */
  readonly write: (sync: boolean) => Promise<void>;
  /** Whether the member has stopped (its stop() makes the last flush itself). */
  readonly stopped: () => boolean;
  readonly onFatal: (error: Error) => void;
}

export class BackendFlusher {
  readonly #d: FlusherDeps;
  #flushing: Promise<void> | undefined;
  #again = false;
  #againSync = false;
  #scheduled = false;

  constructor(deps: FlusherDeps) {
    this.#d = deps;
  }

  /** A flush FLUSH_DELAY_MS from now, unless one is already scheduled. */
  schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    void this.#d.scheduler.sleep(FLUSH_DELAY_MS).then(() => {
      this.#scheduled = false;
      if (!this.#d.stopped()) void this.flush();
    });
  }

  /**
   * Writes applied state to the backend. With `sync`, the returned promise resolves after a
   * synced flush that started after this call.
   */
  flush(options?: { readonly sync?: boolean }): Promise<void> {
    const sync = options?.sync ?? false;
    if (this.#flushing) {
      this.#again = true;
      this.#againSync ||= sync;
      return this.#flushing;
    }
    let nextSync = sync;
    this.#flushing = (async () => {
      do {
        this.#again = false;
        const thisSync = nextSync || this.#againSync;
        this.#againSync = false;
        nextSync = false;
        await this.#d.write(thisSync);
      } while (this.#again);
    })()
      .catch((e: unknown) => this.#d.onFatal(new Error('backend flush failed', { cause: e })))
      .finally(() => {
        this.#flushing = undefined;
      });
    return this.#flushing;
  }

  /** Resolves once no flush is running. */
  async settled(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }
}
