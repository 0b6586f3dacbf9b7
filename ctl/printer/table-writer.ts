/**
 * The ASCII tables etcdctl draws (olekukonko/tablewriter with right-aligned cells):
 *
 *   +----------+--------+
 *   | ENDPOINT | HEALTH |      header: upper-cased, centred (extra space on the right)
 *   +----------+--------+
 *   |    a:1   |   true |      cells: right-aligned
 *   +----------+--------+
 *
 * Widths count code points (enough for the ASCII and `µ` these tables hold).
 */
function width(s: string): number {
  return [...s].length;
}

function centre(s: string, w: number): string {
  const gap = w - width(s);
  const left = Math.floor(gap / 2);
  return ' '.repeat(left) + s + ' '.repeat(gap - left);
}

export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const titles = header.map((h) => h.replace(/[_.]/g, ' ').trim().toUpperCase());
  const widths = titles.map((t, i) => Math.max(width(t), ...rows.map((r) => width(r[i] ?? ''))));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
  const head = `|${titles.map((t, i) => ` ${centre(t, widths[i])} `).join('|')}|\n`;
  const body = rows.map((r) => `|${widths.map((w, i) => ` ${' '.repeat(w - width(r[i] ?? ''))}${r[i] ?? ''} `).join('|')}|\n`).join('');
  return line + head + line + body + line;
}
