/**
 * The trace of a simulated run: every notable step as a line "<virtual ms> <text>". All
 * lines (and per-step state digests mixed in with `mix`) feed one running hash, so two runs
 * of one seed can be compared by `digest()`; the last `capacity` lines are kept to print
 * when a run fails.
 */
import { createHash, type Hash } from 'node:crypto';

export class Trace {
  readonly #hash: Hash = createHash('sha1');
  readonly #ring: string[] = [];
  readonly #capacity: number;
  #next = 0;
  lines = 0;
  /** When set, every line is also passed here (e.g. console.log while debugging a seed). */
  echo: ((line: string) => void) | undefined;

  constructor(capacity = 200) {
    this.#capacity = capacity;
  }

  line(nowMs: number, text: string): void {
    const s = `${nowMs} ${text}`;
    this.#hash.update(s);
    this.#hash.update('\n');
    this.lines++;
    if (this.#ring.length < this.#capacity) this.#ring.push(s);
    else this.#ring[this.#next] = s;
    this.#next = (this.#next + 1) % this.#capacity;
    this.echo?.(s);
  }

  /** Feeds the hash without keeping a line. */
  mix(text: string): void {
    this.#hash.update(text);
  }

  digest(): string {
    return this.#hash.copy().digest('hex');
  }

  /** The last `n` lines, oldest first. */
  tail(n = this.#capacity): string[] {
    const ordered = this.#ring.length < this.#capacity ? [...this.#ring] : [...this.#ring.slice(this.#next), ...this.#ring.slice(0, this.#next)];
    return ordered.slice(-n);
  }
}
