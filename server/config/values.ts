/**
 * The flag values in effect: explicitly set ones (from argv + env, or from the YAML file)
 * over the row defaults of the version profile. Typed getters throw when asked for a type the
 * row does not have: that is a programming error, not an input error.
 */
import type { VersionProfile } from '../version/profile.js';
import { defaultText, type FlagValue } from './flag-spec.js';
import { flag } from './flag-table.js';
import type { InitialClusterMember } from './types.js';
import { parseText } from './value-parse.js';

export interface Values {
  /** True when the flag was given (on the command line, in the env, or in the file). */
  isSet(name: string): boolean;
  /** Names of the flags that were given, in the order they were read. */
  setNames(): readonly string[];
  str(name: string): string;
  bool(name: string): boolean;
  num(name: string): number;
  list(name: string): readonly string[];
  cluster(name: string): readonly InitialClusterMember[];
}

export function makeValues(explicit: ReadonlyMap<string, FlagValue>, profile: VersionProfile): Values {
  const value = (name: string): FlagValue => {
    const given = explicit.get(name);
    if (given !== undefined) return given;
    const spec = flag(name);
    const parsed = parseText(spec.type, defaultText(spec, profile));
    if (!parsed.ok) throw new Error(`default of --${name} does not parse: ${parsed.reason}`);
    return parsed.value;
  };
  const typed = <T>(name: string, want: string, check: (v: FlagValue) => v is FlagValue & T): T => {
    const v = value(name);
    if (!check(v)) throw new Error(`flag --${name} is not a ${want}`);
    return v;
  };
  return {
    isSet: (name) => explicit.has(name),
    setNames: () => [...explicit.keys()],
    str: (name) => typed(name, 'string', (v): v is string => typeof v === 'string'),
    bool: (name) => typed(name, 'boolean', (v): v is boolean => typeof v === 'boolean'),
    num: (name) => typed(name, 'number', (v): v is number => typeof v === 'number'),
    list: (name) =>
      typed(name, 'list', (v): v is readonly string[] => Array.isArray(v) && v.every((x: unknown) => typeof x === 'string')),
    cluster: (name) =>
      typed(name, 'member list', (v): v is readonly InitialClusterMember[] => Array.isArray(v) && v.every((x: unknown) => typeof x === 'object')),
  };
}
