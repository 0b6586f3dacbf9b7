/** Prints a run as a plain-text table: test, the server's result, etcd's recorded result, the verdict. Pure. */
import type { Judged } from './gate.js';
import type { Lists } from './lists.js';

function cell(result: string | undefined, seconds: number | undefined): string {
  if (result === undefined) return '-';
  return seconds === undefined ? result : `${result} ${seconds.toFixed(1)}s`;
}

export function formatTable(server: string, judged: readonly Judged[], lists: Lists): string {
  const rows = judged.map((j) => {
    const ref = lists.reference?.tests[j.outcome.name];
    const retried = j.outcome.firstAttempt ? ` (retry; first ${j.outcome.firstAttempt.result})` : '';
    return [j.outcome.name, cell(j.outcome.result, j.outcome.seconds) + retried, cell(ref?.result, ref?.seconds), j.verdict];
  });
  const header = ['test', server, 'etcd 3.4 (reference)', 'verdict'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
