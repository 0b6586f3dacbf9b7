/**
 * Reads sample values out of the Prometheus text exposition format (what a member's /metrics
 * serves). Only what the operator needs: the first sample of a metric family, labels ignored.
 *
 * Contract: `sampleOf(text, name)` is the value of the first line `name` or `name{…}`
 * (comment lines skipped); undefined when there is none or its value is not a number.
 */

export function sampleOf(text: string, name: string): number | undefined {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || !line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    let valuePart: string;
    if (rest.startsWith('{')) {
      const close = rest.lastIndexOf('}');
      if (close < 0) continue;
      valuePart = rest.slice(close + 1);
    } else if (rest.startsWith(' ') || rest.startsWith('\t')) {
      valuePart = rest;
    } else {
      continue; // a longer name with this one as prefix
    }
    const value = Number(valuePart.trim().split(/\s+/)[0]);
    return Number.isNaN(value) ? undefined : value;
  }
  return undefined;
}
