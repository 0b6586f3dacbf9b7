/**
 * The shape of one row of the flag table (flags-*.ts) and of the values rows parse to.
 *
 * A row is the single description of a flag: its value type, default (as the text a user
 * would type, so defaults go through the same parser as input), help text, the minor line
 * that introduced it, how far kvstore supports it, and where it lives in the YAML file.
 */
import type { MinorVersion } from '../version/minor.js';
import type { VersionProfile } from '../version/profile.js';
import type { InitialClusterMember } from './types.js';

/** How a flag's text (and YAML value) is read. */
export type ValueType =
  | { readonly kind: 'string' }
  | { readonly kind: 'bool' }
  /** Non-negative decimal integer, at most `max`. */
  | { readonly kind: 'uint'; readonly max?: number }
  /** Decimal integer, possibly negative. */
  | { readonly kind: 'int' }
  /** Go duration text (`5s`, `1h30m`) on the command line; integer nanoseconds in YAML. Parses to ms. */
  | { readonly kind: 'duration' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  /**
   * Comma-separated URLs (http, https, unix, unixs; `host:port`; no path). `bind`: listener URLs, whose
   * host must be an IP or `localhost` and whose scheme must not be unixs (not served).
   * `required`: an empty list is an error.
   */
  | { readonly kind: 'urls'; readonly bind: boolean; readonly required: boolean }
  /** Comma-separated strings (YAML: a comma-separated string or a list). */
  | { readonly kind: 'list' }
  /** `<name>=<url>,…` (--initial-cluster). */
  | { readonly kind: 'cluster' }
  /** --auto-compaction-retention: text whose meaning depends on the mode (checked later). */
  | { readonly kind: 'retention' };

/** A parsed value. Durations are milliseconds. */
export type FlagValue = string | boolean | number | readonly string[] | readonly InitialClusterMember[];

/**
 * How far kvstore honours a flag:
 * - `yes`: implemented;
 * - `ignored`: accepted for compatibility, has no effect (warning when set);
 * - `unsupported`: setting it to anything but its default is an error.
 */
export type Support = 'yes' | 'ignored' | 'unsupported';

export const FlagGroup = {
  Member: 'Member',
  Clustering: 'Clustering',
  Security: 'Security',
  Auth: 'Auth',
  Logging: 'Logging',
  Experimental: 'Experimental distributed tracing and features',
  Profiling: 'Profiling and monitoring',
  Proxy: 'Proxy and discovery (not supported)',
} as const;
export type FlagGroup = (typeof FlagGroup)[keyof typeof FlagGroup];

export interface FlagSpec {
  /** Name without dashes, e.g. `data-dir`; also the YAML key unless `yaml` says otherwise. */
  readonly name: string;
  readonly type: ValueType;
  /** Default as flag text; a function when it depends on the version line. */
  readonly default: string | ((profile: VersionProfile) => string);
  /** Default as shown in --help when it is derived from other flags (e.g. `${name}.kvstore`). */
  readonly defaultHelp?: string;
  readonly help: string;
  readonly group: FlagGroup;
  /** Minor line that introduced the flag, where known. */
  readonly since?: MinorVersion;
  /** From `since` on, setting the flag warns that it is deprecated, with the replacement advice. */
  readonly deprecated?: { readonly since: MinorVersion; readonly advice: string };
  readonly support: Support;
  /**
   * Where the value lives in the YAML file: a key path (TLS settings are nested under
   * `client-transport-security` / `peer-transport-security`), or null when it is not a YAML key.
   * Absent: the top-level key equal to `name`.
   */
  readonly yaml?: readonly string[] | null;
}

/** The default text of a row for a given version line. */
export function defaultText(spec: FlagSpec, profile: VersionProfile): string {
  return typeof spec.default === 'function' ? spec.default(profile) : spec.default;
}

/** Value types shared by many rows. */
export const STRING: ValueType = { kind: 'string' };
export const BOOL: ValueType = { kind: 'bool' };
export const UINT: ValueType = { kind: 'uint' };
export const INT: ValueType = { kind: 'int' };
export const DURATION: ValueType = { kind: 'duration' };
export const LIST: ValueType = { kind: 'list' };
export const oneOf = (...values: readonly string[]): ValueType => ({ kind: 'enum', values });
export const listenUrls = (required: boolean): ValueType => ({ kind: 'urls', bind: true, required });
export const advertisedUrls: ValueType = { kind: 'urls', bind: false, required: true };
