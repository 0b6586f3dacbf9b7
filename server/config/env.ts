/**
 * Flags from the environment: `KVSTORE_<FLAG_IN_UPPER_SNAKE>` (e.g. KVSTORE_DATA_DIR) for every
 * flag not given on the command line. Empty variables count as unset. Like etcd:
 * - a variable shadowed by a command-line flag is a warning up to 3.3 and an error from 3.4
 *   (profile field envShadowedByFlag);
 * - KVSTORE_VERSION cannot ask for the version (warning);
 * - other KVSTORE_* variables that are not flags are reported as unrecognized (warning).
 */
import { CLIENT_THREADS_ENV } from './client-threads.js';
import { SERVER_VERSION_ENV } from '../version/version.js';
import { LEASE_CHECKPOINT_INTERVAL_ENV } from './lease-checkpoint.js';
import type { VersionProfile } from '../version/profile.js';
import type { FlagValue } from './flag-spec.js';
import { FLAGS, envName } from './flag-table.js';
import { parseText } from './value-parse.js';

export type EnvRead =
  | { readonly ok: true; readonly values: ReadonlyMap<string, FlagValue>; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** Environment variables with a KVSTORE_ prefix that are not flags but are known. */
const OTHER_KNOWN = new Set([SERVER_VERSION_ENV, LEASE_CHECKPOINT_INTERVAL_ENV, CLIENT_THREADS_ENV]);

/** Reads flag values from `env`; `onCommandLine` holds the names given as flags. */
export function readEnv(
  env: Readonly<Record<string, string | undefined>>,
  onCommandLine: ReadonlySet<string>,
  profile: VersionProfile,
): EnvRead {
  const values = new Map<string, FlagValue>();
  const warnings: string[] = [];
  const flagVars = new Set<string>();
  for (const spec of FLAGS) {
    const key = envName(spec.name);
    flagVars.add(key);
    const text = env[key];
    if (text === undefined || text === '') continue;
    if (spec.name === 'version') {
      warnings.push(`cannot set special environment variable ${key}=${text}; ignored`);
      continue;
    }
    if (spec.name === 'config-file') continue; // decided before the environment is read
    if (onCommandLine.has(spec.name)) {
      if (profile.envShadowedByFlag === 'error') {
        return {
          ok: false,
          message: `conflicting environment variable "${key}" is shadowed by corresponding command-line flag (either unset environment variable or disable flag)`,
        };
      }
      warnings.push(`recognized environment variable ${key}, but unused: shadowed by corresponding flag`);
      continue;
    }
    const parsed = parseText(spec.type, text);
    if (!parsed.ok) return { ok: false, message: `invalid value ${JSON.stringify(text)} for environment variable ${key}: ${parsed.reason}` };
    values.set(spec.name, parsed.value);
  }
  for (const key of Object.keys(env).sort()) {
    if (key.startsWith('KVSTORE_') && !flagVars.has(key) && !OTHER_KNOWN.has(key)) {
      warnings.push(`unrecognized environment variable ${key}=${env[key] ?? ''}`);
    }
  }
  return { ok: true, values, warnings };
}

/** Names of the flag variables present (non-empty) in `env`, for "ignored" warnings. */
export function flagVariablesIn(env: Readonly<Record<string, string | undefined>>): readonly string[] {
  return FLAGS.map((f) => envName(f.name)).filter((key) => key !== envName('config-file') && (env[key] ?? '') !== '');
}
