/**
 * etcdctl 3.4's global flags, their defaults, and the KVSTORECTL_* environment variables
 * (`--dial-timeout` ↔ KVSTORECTL_DIAL_TIMEOUT). A flag given on the command line wins over
 * the environment, which wins over the default.
 */
import type { Command } from 'commander';
import { isOutputFormat, type OutputFormat } from '../printer/index.js';
import { parseGoDurationMs } from './go-duration.js';

export interface GlobalConfig {
  readonly endpoints: readonly string[];
  readonly dialTimeoutMs: number;
  readonly commandTimeoutMs: number;
  /** Whether --command-timeout (or its variable) was given (snapshot save has no deadline otherwise). */
  readonly commandTimeoutSet: boolean;
  readonly keepAliveTimeMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly writeOut: OutputFormat;
  readonly hex: boolean;
  readonly debug: boolean;
  readonly user?: string;
  readonly password?: string;
  readonly cacert?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly insecureTransport: boolean;
}

interface FlagDef {
  /** Long name without dashes. */
  readonly name: string;
  readonly short?: string;
  readonly kind: 'string' | 'bool' | 'duration' | 'list';
  readonly def: string;
  readonly help: string;
}

export const GLOBAL_FLAGS: readonly FlagDef[] = [
  { name: 'endpoints', kind: 'list', def: '127.0.0.1:2379', help: 'gRPC endpoints' },
  { name: 'dial-timeout', kind: 'duration', def: '2s', help: 'dial timeout for client connections' },
  { name: 'command-timeout', kind: 'duration', def: '5s', help: 'timeout for short running command (excluding dial timeout)' },
  { name: 'keepalive-time', kind: 'duration', def: '2s', help: 'keepalive time for client connections' },
  { name: 'keepalive-timeout', kind: 'duration', def: '6s', help: 'keepalive timeout for client connections' },
  { name: 'write-out', short: 'w', kind: 'string', def: 'simple', help: 'set the output format (fields, json, protobuf, simple, table)' },
  { name: 'hex', kind: 'bool', def: 'false', help: 'print byte strings as hex encoded strings' },
  { name: 'debug', kind: 'bool', def: 'false', help: 'enable client-side debug logging' },
  { name: 'user', kind: 'string', def: '', help: 'username[:password] for authentication (prompt if password is not supplied)' },
  { name: 'password', kind: 'string', def: '', help: 'password for authentication (if this option is used, --user option shouldn\'t include password)' },
  { name: 'cacert', kind: 'string', def: '', help: 'verify certificates of TLS-enabled secure servers using this CA bundle' },
  { name: 'cert', kind: 'string', def: '', help: 'identify secure client using this TLS certificate file' },
  { name: 'key', kind: 'string', def: '', help: 'identify secure client using this TLS key file' },
  { name: 'insecure-skip-tls-verify', kind: 'bool', def: 'false', help: 'skip server certificate verification (CAUTION: this option should be enabled only for testing purposes)' },
  { name: 'insecure-transport', kind: 'bool', def: 'true', help: 'disable transport security for client connections' },
  { name: 'discovery-srv', short: 'd', kind: 'string', def: '', help: 'domain name to query for SRV records describing cluster endpoints (not supported)' },
  { name: 'discovery-srv-name', kind: 'string', def: '', help: 'service name to query when using DNS discovery (not supported)' },
  { name: 'insecure-discovery', kind: 'bool', def: 'true', help: 'accept insecure SRV records describing cluster endpoints' },
];

/** The names of every boolean flag (global and per command), for `--flag=true|false` rewriting. */
export const GLOBAL_BOOL_FLAGS: readonly string[] = GLOBAL_FLAGS.filter((f) => f.kind === 'bool').map((f) => f.name);

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Adds the global flags to the program (values stay strings or booleans; see resolveGlobal). */
export function addGlobalFlags(program: Command): void {
  for (const f of GLOBAL_FLAGS) {
    const flags = `${f.short === undefined ? '' : `-${f.short}, `}--${f.name}`;
    if (f.kind === 'bool') {
      program.option(flags, f.help);
      if (f.def === 'true') program.option(`--no-${f.name}`, `disable --${f.name}`);
    } else if (f.kind === 'list') {
      program.option(`${flags} <value>`, f.help, (v: string, prev: string[] | undefined) => [...(prev ?? []), ...v.split(',').filter((s) => s !== '')]);
    } else {
      program.option(`${flags} <value>`, f.help);
    }
  }
}

/** A global-flag problem: etcdctl's usage error text (exit code 1). */
export interface FlagError {
  readonly message: string;
}

/** Resolves flag values (from `optsWithGlobals()`), then environment, then defaults. */
export function resolveGlobal(opts: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>): GlobalConfig | FlagError {
  const raw = (f: FlagDef): string | boolean | string[] => {
    const v = opts[camel(f.name)];
    if (v !== undefined) return v as string | boolean | string[];
    const e = env[`KVSTORECTL_${f.name.toUpperCase().replace(/-/g, '_')}`];
    if (e !== undefined && e !== '') return f.kind === 'bool' ? e === 'true' || e === '1' : f.kind === 'list' ? e.split(',') : e;
    return f.kind === 'bool' ? f.def === 'true' : f.kind === 'list' ? f.def.split(',') : f.def;
  };
  const get = (name: string): string | boolean | string[] => raw(GLOBAL_FLAGS.find((f) => f.name === name) as FlagDef);
  const durations: Record<string, number> = {};
  for (const f of GLOBAL_FLAGS.filter((x) => x.kind === 'duration')) {
    const text = String(raw(f));
    const ms = parseGoDurationMs(text);
    if (ms === undefined) return { message: `invalid argument "${text}" for "--${f.name}" flag: time: invalid duration "${text}"` };
    durations[f.name] = ms;
  }
  const writeOut = String(get('write-out'));
  if (!isOutputFormat(writeOut)) return { message: 'unsupported output format' };
  const str = (name: string): string | undefined => {
    const v = String(get(name));
    return v === '' ? undefined : v;
  };
  let user = str('user');
  let password = str('password');
  if (user !== undefined && password === undefined && user.includes(':')) {
    const i = user.indexOf(':');
    password = user.slice(i + 1);
    user = user.slice(0, i);
  }
  const cfg: GlobalConfig = {
    endpoints: (get('endpoints') as string[]).map((s) => s.trim()).filter((s) => s !== ''),
    dialTimeoutMs: durations['dial-timeout'],
    commandTimeoutMs: durations['command-timeout'],
    commandTimeoutSet: opts.commandTimeout !== undefined || (env.KVSTORECTL_COMMAND_TIMEOUT ?? '') !== '',
    keepAliveTimeMs: durations['keepalive-time'],
    keepAliveTimeoutMs: durations['keepalive-timeout'],
    writeOut,
    hex: get('hex') === true,
    debug: get('debug') === true,
    ...(user === undefined ? {} : { user }),
    ...(password === undefined ? {} : { password }),
    ...(str('cacert') === undefined ? {} : { cacert: str('cacert') }),
    ...(str('cert') === undefined ? {} : { cert: str('cert') }),
    ...(str('key') === undefined ? {} : { key: str('key') }),
    insecureSkipTlsVerify: get('insecure-skip-tls-verify') === true,
    insecureTransport: get('insecure-transport') !== false,
  };
  return cfg;
}
