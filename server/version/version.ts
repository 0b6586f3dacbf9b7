/**
 * The server version this binary reports, and how it is chosen.
 *
 * kvstore can present itself as any minor line from 3.2 to 3.5 (so rolling upgrades
 * between lines can be exercised with one binary). The version is picked from the
 * environment variable KVSTORE_SERVER_VERSION, defaulting to DEFAULT_SERVER_VERSION.
 * Everything here is pure: callers pass the environment in (only main.ts reads it).
 */
import { MINOR_VERSIONS, type MinorVersion } from './minor.js';

/** The newest line this product implements. */
export const DEFAULT_SERVER_VERSION = '3.5.0';

/** Name of the environment variable that overrides the server version. */
export const SERVER_VERSION_ENV = 'KVSTORE_SERVER_VERSION';

/** The API version of the default server version (major.minor). */
export const API_VERSION = '3.5';

export type ServerVersionResult = { readonly ok: true; readonly version: string } | { readonly ok: false; readonly message: string };

const VERSION_PATTERN = /^3\.([2-5])\.(0|[1-9][0-9]{0,5})$/;

/**
 * Picks the server version from KVSTORE_SERVER_VERSION (unset or empty → DEFAULT_SERVER_VERSION).
 * Accepted: `3.2.x`, `3.3.x`, `3.4.x`, `3.5.x` with a decimal patch number. Errors name the
 * variable and the accepted values.
 */
export function resolveServerVersion(env: Readonly<Record<string, string | undefined>>): ServerVersionResult {
  const raw = env[SERVER_VERSION_ENV];
  if (raw === undefined || raw === '') return { ok: true, version: DEFAULT_SERVER_VERSION };
  const text = raw.trim();
  if (!VERSION_PATTERN.test(text)) {
    return {
      ok: false,
      message: `invalid value ${JSON.stringify(raw)} for environment variable ${SERVER_VERSION_ENV}: must be one of 3.2.x, 3.3.x, 3.4.x, 3.5.x (x = patch number, e.g. 3.4.0)`,
    };
  }
  return { ok: true, version: text };
}

/** `major.minor` of a validated server version, e.g. `3.4.27` → `3.4`. */
export function apiVersionOf(serverVersion: string): MinorVersion {
  const minor = serverVersion.split('.').slice(0, 2).join('.');
  const found = MINOR_VERSIONS.find((m) => m === minor);
  if (found === undefined) throw new Error(`not a supported server version: ${serverVersion}`);
  return found;
}

/** Facts about the running process that the version output shows (passed in by main.ts). */
export interface RuntimeInfo {
  /** e.g. `process.version` → `v20.19.0`. */
  readonly nodeVersion: string;
  /** e.g. `process.platform` → `linux`. */
  readonly platform: string;
  /** e.g. `process.arch` → `x64`. */
  readonly arch: string;
}

/**
 * The text printed by `kvstore --version` (one fact per line, trailing newline), shaped
 * like etcd's output:
 *
 *   kvstore Version: 3.5.0
 *   API Version: 3.5
 *   Node Version: v20.19.0
 *   OS/Arch: linux/x64
 */
export function formatVersionOutput(serverVersion: string, runtime: RuntimeInfo): string {
  return [
    `kvstore Version: ${serverVersion}`,
    `API Version: ${apiVersionOf(serverVersion)}`,
    `Node Version: ${runtime.nodeVersion}`,
    `OS/Arch: ${runtime.platform}/${runtime.arch}`,
  ].join('\n') + '\n';
}
