/**
 * loadConfig: command line + environment (or the YAML file) → what the process should do.
 *
 * Order, as etcd: scan argv (syntax errors and -h first); pick the server version from
 * KVSTORE_SERVER_VERSION; --version wins over everything else; then, when --config-file (or
 * KVSTORE_CONFIG_FILE) is set, the file is the only source and other flags and variables are
 * ignored (with a warning naming them); otherwise flags, then KVSTORE_* variables, then
 * defaults. Nothing here reads process state: argv, env and file reading are passed in.
 */
import { profileFor } from '../version/profile.js';
import { resolveServerVersion } from '../version/version.js';
import { scanArgv } from './argv.js';
import { buildConfig, type BuildContext } from './build-config.js';
import { flagVariablesIn, readEnv } from './env.js';
import type { FlagValue } from './flag-spec.js';
import { envName, findFlag, flag } from './flag-table.js';
import { helpText } from './help.js';
import { clientThreads } from './client-threads.js';
import { leaseCheckpointInterval } from './lease-checkpoint.js';
import type { ConfigOutcome } from './types.js';
import { parseText } from './value-parse.js';
import { makeValues } from './values.js';
import { readYamlConfig } from './yaml-file.js';

/**
 * @param argv the arguments after the program name (`process.argv.slice(2)`).
 * @param env the environment (`process.env`).
 * @param readFile returns a file's text; may throw (reported as an error outcome).
 */
export function loadConfig(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string,
): ConfigOutcome {
  const scan = scanArgv(argv, findFlag);
  if (scan.kind === 'error') return { kind: 'error', message: scan.message };
  const version = resolveServerVersion(env);
  if (!version.ok) return { kind: 'error', message: version.message };
  const profile = profileFor(version.version);
  if (scan.kind === 'help') return { kind: 'help', text: helpText(profile) };

  const fromArgv = new Map<string, FlagValue>();
  for (const given of scan.flags) {
    const parsed = parseText(flag(given.name).type, given.text);
    if (!parsed.ok) return { kind: 'error', message: `invalid value ${JSON.stringify(given.text)} for flag --${given.name}: ${parsed.reason}` };
    fromArgv.set(given.name, parsed.value);
  }
  if (fromArgv.get('version') === true) return { kind: 'version', serverVersion: version.version };

  const interval = leaseCheckpointInterval(env);
  if (!interval.ok) return { kind: 'error', message: interval.message };
  const threads = clientThreads(env);
  if (!threads.ok) return { kind: 'error', message: threads.message };
  const leaseCheckpointIntervalMs = interval.ms;

  const configFile = (fromArgv.get('config-file') as string | undefined) || env[envName('config-file')] || undefined;
  if (configFile !== undefined) return fromFile(configFile, fromArgv, env, readFile, { profile, serverVersion: version.version, configFile, leaseCheckpointIntervalMs });

  const fromEnv = readEnv(env, new Set(fromArgv.keys()), profile);
  if (!fromEnv.ok) return { kind: 'error', message: fromEnv.message };
  const explicit = new Map([...fromArgv, ...fromEnv.values]);
  explicit.delete('config-file');
  explicit.delete('version');
  const built = buildConfig(makeValues(explicit, profile), { profile, serverVersion: version.version, configFile: undefined, leaseCheckpointIntervalMs });
  if (!built.ok) return { kind: 'error', message: built.message };
  return { kind: 'run', config: built.config, warnings: [...fromEnv.warnings, ...built.warnings] };
}

function fromFile(
  path: string,
  fromArgv: ReadonlyMap<string, FlagValue>,
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string,
  ctx: BuildContext & { readonly configFile: string },
): ConfigOutcome {
  const { profile } = ctx;
  let text: string;
  try {
    text = readFile(path);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { kind: 'error', message: `cannot read config file ${JSON.stringify(path)}: ${reason}` };
  }
  const yaml = readYamlConfig(text, path, profile);
  if (!yaml.ok) return { kind: 'error', message: yaml.message };
  const warnings: string[] = [];
  const ignoredFlags = [...fromArgv.keys()].filter((n) => n !== 'config-file' && n !== 'version').map((n) => `--${n}`);
  if (ignoredFlags.length > 0) warnings.push(`config file ${JSON.stringify(path)} is used; command-line flags ignored: ${ignoredFlags.join(', ')}`);
  const ignoredVars = flagVariablesIn(env);
  if (ignoredVars.length > 0) warnings.push(`config file ${JSON.stringify(path)} is used; environment variables ignored: ${ignoredVars.join(', ')}`);
  warnings.push(...yaml.warnings);
  const built = buildConfig(makeValues(yaml.values, profile), ctx);
  if (!built.ok) return { kind: 'error', message: built.message };
  return { kind: 'run', config: built.config, warnings: [...warnings, ...built.warnings] };
}
