/**
 * A one-line progress bar for terminals: `[=====>      ]  45% 12 MB / 27 MB 3.1 MB/s`, redrawn
 * in place with `\r` at most every 100 ms, finished with a newline. Draw it only on a TTY.
 */
import type { Output } from '../../cli/io.js';
import { humanizeBytes } from '../../printer/humanize.js';

const WIDTH = 30;
const REDRAW_MS = 100;

export class ProgressBar {
  private lastDraw = -Infinity;
  private readonly started: number;

  constructor(
    private readonly out: Output,
    private readonly now: () => number,
  ) {
    this.started = now();
  }

  /** Redraws for `done` of `total` bytes (total 0: unknown). */
  update(done: number, total: number, force = false): void {
    const t = this.now();
    if (!force && t - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = t;
    const secs = Math.max((t - this.started) / 1000, 0.001);
    const rate = `${humanizeBytes(Math.round(done / secs))}/s`;
    if (total <= 0) {
      this.out.write(`\r${humanizeBytes(done)} ${rate}   `);
      return;
    }
    const frac = Math.min(1, done / total);
    const filled = Math.floor(frac * WIDTH);
    const bar = '='.repeat(filled) + (filled < WIDTH ? '>' : '') + ' '.repeat(Math.max(0, WIDTH - filled - 1));
    this.out.write(`\r[${bar}] ${String(Math.floor(frac * 100)).padStart(3)}% ${humanizeBytes(done)} / ${humanizeBytes(total)} ${rate}   `);
  }

  finish(done: number, total: number): void {
    this.update(done, total, true);
    this.out.write('\n');
  }
}
