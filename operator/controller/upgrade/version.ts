/**
 * Server versions as the operator compares them: `3.<minor>.<patch>`, parsed once, compared
 * numerically (never as strings). Pure.
 */

export interface Semver {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

const PATTERN = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

/** `3.4.0` → {3, 4, 0}; undefined for anything else (empty, `v3.4.0`, `3.4`). */
export function parseVersion(text: string): Semver | undefined {
  const m = PATTERN.exec(text.trim());
  if (m === null) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: Semver, b: Semver): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** `3.4.7` → `3.4` (the line a cluster version and the downgrade floor are kept at). */
export function minorOf(v: Semver): string {
  return `${v.major}.${v.minor}`;
}

/** Same major.minor line. */
export function sameMinor(a: Semver, b: Semver): boolean {
  return a.major === b.major && a.minor === b.minor;
}

/** `3.4` or `3.4.0` → {3, 4, 0} (a floor or a cluster version compared as a line). */
export function parseMinor(text: string): Semver | undefined {
  const m = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?$/.exec(text.trim());
  if (m === null) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: 0 };
}

/** The lowest of the parseable versions, as written; undefined when none parses. */
export function lowestVersion(texts: readonly string[]): string | undefined {
  let best: { text: string; v: Semver } | undefined;
  for (const text of texts) {
    const v = parseVersion(text);
    if (v !== undefined && (best === undefined || compareVersions(v, best.v) < 0)) best = { text, v };
  }
  return best?.text;
}
