/**
 * The whole flag table (one row per flag, rows in flags-*.ts) and lookups on it.
 * Immutable module data; lookups are pure.
 */
import type { FlagSpec } from './flag-spec.js';
import { MEMBER_FLAGS } from './flags-member.js';
import { CLUSTERING_FLAGS } from './flags-clustering.js';
import { SECURITY_FLAGS } from './flags-security.js';
import { LOGGING_FLAGS } from './flags-logging.js';
import { EXPERIMENTAL_FLAGS } from './flags-experimental.js';

export const FLAGS: readonly FlagSpec[] = [...MEMBER_FLAGS, ...CLUSTERING_FLAGS, ...SECURITY_FLAGS, ...LOGGING_FLAGS, ...EXPERIMENTAL_FLAGS];

const BY_NAME: ReadonlyMap<string, FlagSpec> = new Map(FLAGS.map((f) => [f.name, f]));

/** The row of a flag name (without dashes), or undefined. */
export function findFlag(name: string): FlagSpec | undefined {
  return BY_NAME.get(name);
}

/** The row of a flag name the code knows exists (a missing row is a programming error). */
export function flag(name: string): FlagSpec {
  const spec = BY_NAME.get(name);
  if (spec === undefined) throw new Error(`no such flag in the table: ${name}`);
  return spec;
}

/** Environment variable of a flag: `KVSTORE_` + name in upper snake case (`data-dir` → `KVSTORE_DATA_DIR`). */
export function envName(flagName: string): string {
  return 'KVSTORE_' + flagName.toUpperCase().replace(/-/g, '_');
}
