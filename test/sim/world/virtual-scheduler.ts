/**
 * Virtual time for a simulated world, and the Scheduler port (server/member/scheduler.ts)
 * each simulated process gets from it.
 *
 * Three queues: `soon` tasks (the member's "after the current task"), then `later` tasks
 * ("after pending I/O"), then timers in (time, sequence) order. Time advances only when
 * the soon and later queues are empty, and jumps straight to the next timer. Between two
 * tasks the driver lets the JavaScript microtask queue drain completely (real code awaits
 * Promises), so every task observes the effects of the previous one.
 *
 * Every task may have an owner Life: once the owner is dead (a crashed process), its timers,
 * intervals, sleeps and queued tasks are dropped, and its sleeps never resolve.
 */
import type { Scheduler } from '../../../server/member/scheduler.js';
import { TimerHeap, type Life, type Timer } from './timer-heap.js';

export type { Life } from './timer-heap.js';

interface Task {
  readonly run: () => void;
  readonly owner: Life | undefined;
}

/** What the driver did in one call of `runNext`. */
export type StepKind = 'soon' | 'later' | 'timer' | 'idle';

/** Lets every pending microtask (and the ones they queue) run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class VirtualScheduler {
  #now: number;
  #seq = 0;
  readonly #timers = new TimerHeap();
  #soon: Task[] = [];
  #later: Task[] = [];

  constructor(startMs = 1_000_000) {
    this.#now = startMs;
  }

  get now(): number {
    return this.#now;
  }

  /** Runs `fn` at now + delayMs (never earlier than now); returns a canceller. */
  at(delayMs: number, fn: () => void, owner?: Life): () => void {
    const t: Timer = { at: this.#now + Math.max(0, delayMs), seq: this.#seq++, run: fn, cancelled: false, owner };
    this.#timers.push(t);
    return () => {
      t.cancelled = true;
    };
  }

  soon(fn: () => void, owner?: Life): void {
    this.#soon.push({ run: fn, owner });
  }

  later(fn: () => void, owner?: Life): void {
    this.#later.push({ run: fn, owner });
  }

  /** The Scheduler port for code running as `owner`. */
  port(owner: Life): Scheduler {
    return {
      now: () => this.#now,
      every: (ms, fn) => {
        let cancel = (): void => undefined;
        const arm = (): void => {
          cancel = this.at(ms, () => {
            arm();
            fn();
          }, owner);
        };
        arm();
        return () => cancel();
      },
      soon: (fn) => this.soon(fn, owner),
      later: (fn) => this.later(fn, owner),
      sleep: (ms) => new Promise((resolve) => void this.at(ms, resolve, owner)),
    };
  }

  /** Time of the next live timer (undefined if none). */
  nextTimerAt(): number | undefined {
    this.#dropDead();
    return this.#timers.peek()?.at;
  }

  #dropDead(): void {
    for (let t = this.#timers.peek(); t && (t.cancelled || (t.owner && !t.owner.alive)); t = this.#timers.peek()) this.#timers.pop();
  }

  /**
   * Runs one task: a soon task if any, else a later task, else the next timer if it is due
   * at or before `untilMs` (advancing time to it). Returns what it ran ('idle': nothing).
   * The caller settles microtasks after each call.
   */
  runNext(untilMs: number): StepKind {
    for (;;) {
      const task = this.#soon.shift();
      if (task === undefined) break;
      if (task.owner && !task.owner.alive) continue;
      task.run();
      return 'soon';
    }
    for (;;) {
      const task = this.#later.shift();
      if (task === undefined) break;
      if (task.owner && !task.owner.alive) continue;
      task.run();
      return 'later';
    }
    this.#dropDead();
    const next = this.#timers.peek();
    if (next === undefined || next.at > untilMs) {
      if (untilMs > this.#now && untilMs !== Infinity) this.#now = untilMs;
      return 'idle';
    }
    this.#timers.pop();
    this.#now = next.at;
    next.run();
    return 'timer';
  }

  /** True when a soon or later task is queued. */
  get busy(): boolean {
    return this.#soon.length > 0 || this.#later.length > 0;
  }
}
