/**
 * Which version changes a rolling upgrade may make (SPEC.md "Versioning → Upgrade rules").
 *
 * Allowed: a patch change within a minor line (either direction), or exactly one minor step up.
 * Refused, each with a reason word and a sentence:
 * - UnsupportedVersion: not `3.<2..5>.<patch>`;
 * - SkipsMinorVersion: more than one minor step (3.3 → 3.5: go through 3.4 first);
 * - AuthNeeds3231: 3.2 below 3.2.31 with auth enabled must go to 3.2.31 before 3.3;
 * - AuthUnsupported: 3.4 → 3.5 with auth enabled (the 3.5 WAL format with auth differs);
 * - AuthStatusUnknown: one of the two paths above while no member says auth is on and some member's
 *   auth status could not be read (fail safe: an unreadable status never counts as "off");
 * - V2OnlyData: v2 data and no v3 data (a v2-migrated cluster must hold v3 data before a minor step);
 * - DowngradeRefused: a lower minor line (handled by the caller against the downgrade floor).
 * Pure.
 */
import { compareVersions, parseVersion, type Semver } from './version.js';

export const SUPPORTED_MINORS = [2, 3, 4, 5] as const;

/** v2 store size (bytes) up to which it only holds the store's own bookkeeping (the member records of
 * at most 7 members plus the root): above it the cluster "has v2 data". */
export const V2_BOOKKEEPING_BYTES = 8192;

export interface PathFacts {
  /** Auth enabled on the cluster (any member says so); undefined: no member says so and some
   * member's answer could not be read. */
  readonly authEnabled: boolean | undefined;
  /** Largest v2 store size any member reports (undefined: none could be read). */
  readonly v2StoreBytes: number | undefined;
  /** Highest v3 revision any member reports (1 = an empty v3 key space). */
  readonly revision: number;
}

export type PathVerdict =
  | { readonly ok: true; readonly kind: 'patch' | 'minor'; readonly from: Semver; readonly to: Semver }
  | { readonly ok: false; readonly reason: string; readonly message: string };

function supported(v: Semver | undefined): v is Semver {
  return v !== undefined && v.major === 3 && (SUPPORTED_MINORS as readonly number[]).includes(v.minor);
}

/** A cluster whose v3 key space is empty (revision ≤ 1) while its v2 store holds data. */
export function hasOnlyV2Data(f: PathFacts): boolean {
  return f.v2StoreBytes !== undefined && f.v2StoreBytes > V2_BOOKKEEPING_BYTES && f.revision <= 1;
}

/** Decide whether a cluster running `fromText` everywhere may be rolled to `toText`. */
export function validatePath(fromText: string, toText: string, facts: PathFacts): PathVerdict {
  const from = parseVersion(fromText);
  const to = parseVersion(toText);
  if (!supported(to)) {
    return { ok: false, reason: 'UnsupportedVersion', message: `spec.version ${JSON.stringify(toText)} is not a supported version (3.2.x, 3.3.x, 3.4.x or 3.5.x)` };
  }
  if (!supported(from)) {
    return { ok: false, reason: 'UnsupportedVersion', message: `the members run ${JSON.stringify(fromText)}, which is not a supported version` };
  }
  if (from.minor === to.minor) return { ok: true, kind: 'patch', from, to };
  if (to.minor < from.minor) {
    return { ok: false, reason: 'DowngradeRefused', message: `${toText} is older than the ${from.major}.${from.minor} line the members run; a cluster cannot go back a minor version` };
  }
  if (to.minor > from.minor + 1) {
    const via = `${from.major}.${from.minor + 1}`;
    return { ok: false, reason: 'SkipsMinorVersion', message: `${fromText} → ${toText} skips a minor version: upgrade to ${via}.x first (one minor step at a time)` };
  }
  const authSensitive = (from.minor === 2 && from.patch < 31) || (from.minor === 4 && to.minor === 5);
  if (authSensitive && facts.authEnabled === undefined) {
    return {
      ok: false,
      reason: 'AuthStatusUnknown',
      message: `${fromText} → ${toText} is refused while it is unknown whether auth is enabled (a member did not answer Auth.AuthStatus nor the unauthenticated probe read): check the operator's client certificate and spec.auth credentials; the path is checked again on every pass`,
    };
  }
  if (from.minor === 2 && from.patch < 31 && facts.authEnabled === true) {
    return { ok: false, reason: 'AuthNeeds3231', message: `auth is enabled and ${fromText} is older than 3.2.31: upgrade to 3.2.31 first, then to ${toText}` };
  }
  if (from.minor === 4 && to.minor === 5 && facts.authEnabled === true) {
    return { ok: false, reason: 'AuthUnsupported', message: `auth is enabled: a rolling upgrade from 3.4 to 3.5 with auth is unsupported (the 3.5 WAL format with auth differs); disable auth or restore a snapshot into a new 3.5 cluster` };
  }
  if (hasOnlyV2Data(facts)) {
    return { ok: false, reason: 'V2OnlyData', message: `the cluster holds v2 data (${facts.v2StoreBytes} bytes) and no v3 data (revision ${facts.revision}): migrate the data to v3 before upgrading to ${toText}` };
  }
  return { ok: true, kind: 'minor', from, to };
}

/** a < b as versions (false when either does not parse). */
export function isLower(aText: string, bText: string): boolean {
  const a = parseVersion(aText);
  const b = parseVersion(bText);
  return a !== undefined && b !== undefined && compareVersions(a, b) < 0;
}
