/**
 * Per-key exponential backoff: the n-th consecutive failure of a key waits
 * `min(cap, base · 2^(n-1))` (base 1 s, cap 5 min by default), until `forget(key)` resets it.
 * `exponentialDelay` is the pure rule; `KeyedBackoff` keeps the failure counts of one owner
 * (a work queue, an informer) — no shared state between owners.
 */

export interface BackoffOptions {
  /** Delay after the first failure, ms (default 1000). */
  readonly baseMs?: number;
  /** Upper bound of any delay, ms (default 300 000). */
  readonly capMs?: number;
}

export const DEFAULT_BACKOFF = { baseMs: 1000, capMs: 300_000 } as const;

/** Delay after the `failures`-th consecutive failure (failures ≥ 1; 0 → 0). */
export function exponentialDelay(failures: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? DEFAULT_BACKOFF.baseMs;
  const cap = options.capMs ?? DEFAULT_BACKOFF.capMs;
  if (failures <= 0) return 0;
  // 2^(n-1) overflows to Infinity for large n; min() then yields the cap.
  return Math.min(cap, base * 2 ** (failures - 1));
}

export class KeyedBackoff<K> {
  readonly #failures = new Map<K, number>();
  readonly #options: BackoffOptions;

  constructor(options: BackoffOptions = {}) {
    this.#options = options;
  }

  /** Records one more failure of `key` and returns how long to wait before retrying it. */
  next(key: K): number {
    const n = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, n);
    return exponentialDelay(n, this.#options);
  }

  /** Consecutive failures recorded for `key` since the last forget. */
  failures(key: K): number {
    return this.#failures.get(key) ?? 0;
  }

  /** Resets `key` (its next failure waits the base delay again). */
  forget(key: K): void {
    this.#failures.delete(key);
  }
}
