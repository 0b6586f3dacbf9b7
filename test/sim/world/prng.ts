/**
 * A seeded pseudo-random generator (sfc32, seeded through splitmix32): the only source of
 * randomness in a simulated world. The same seed gives the same sequence on every platform.
 * `fork(label)` derives an independent stream, so that drawing more numbers in one part of
 * the world (say, the network) does not shift the numbers another part (say, a client) sees.
 */

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

function hashLabel(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class Prng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    const init = splitmix32(this.seed);
    this.#a = init();
    this.#b = init();
    this.#c = init();
    this.#d = init() | 1;
    for (let i = 0; i < 12; i++) this.#next32();
  }

  #next32(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.#next32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('prng: pick from an empty list');
    return items[this.int(items.length)]!;
  }

  /** A new generator whose stream depends only on this one's seed and `label`. */
  fork(label: string): Prng {
    return new Prng((this.seed ^ hashLabel(label)) >>> 0);
  }

  /** A `() => number` in [0, 1) for ports that take a plain random function. */
  asFunction(): () => number {
    return () => this.float();
  }
}
