/**
 * Command-line scanning with Go `flag` package rules (what etcd users type):
 * `--flag=value`, `--flag value`, `-flag` forms; a boolean flag takes its value only as
 * `--flag=false` (a bare `--flag` means true); `--` ends the flags; the first argument that is
 * not a flag ends the scan and is reported as an error (etcd: "'x' is not a valid flag");
 * a repeated flag keeps its last value; `-h`/`--help` ask for help.
 *
 * Only syntax is checked here; values are parsed later against the flag table.
 */
import type { FlagSpec } from './flag-spec.js';

/** One flag as given; `text` is 'true' for a bare boolean flag. */
export interface GivenFlag {
  readonly name: string;
  readonly text: string;
}

export type ArgvScan =
  | { readonly kind: 'flags'; readonly flags: readonly GivenFlag[] }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** Scans `argv` (the arguments after the program name). */
export function scanArgv(argv: readonly string[], lookup: (name: string) => FlagSpec | undefined): ArgvScan {
  const flags: GivenFlag[] = [];
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i] ?? '';
    if (arg.length < 2 || !arg.startsWith('-')) break;
    if (arg === '--') {
      i++;
      break;
    }
    const dashes = arg.startsWith('--') ? '--' : '-';
    const body = arg.slice(dashes.length);
    if (body === '' || body.startsWith('-') || body.startsWith('=')) return error(`bad flag syntax: ${arg}`);
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const spec = lookup(name);
    if (spec === undefined) {
      if (name === 'h' || name === 'help') return { kind: 'help' };
      return error(`unknown flag: ${dashes}${name}`);
    }
    i++;
    if (eq >= 0) {
      flags.push({ name, text: body.slice(eq + 1) });
    } else if (spec.type.kind === 'bool') {
      flags.push({ name, text: 'true' });
    } else if (i < argv.length) {
      flags.push({ name, text: argv[i] ?? '' });
      i++;
    } else {
      return error(`flag needs an argument: ${dashes}${name}`);
    }
  }
  const stray = argv[i];
  if (stray !== undefined) {
    const previous = flags[flags.length - 1];
    const hint =
      previous !== undefined && lookup(previous.name)?.type.kind === 'bool' && /^(true|false)$/i.test(stray)
        ? ` (a boolean flag takes its value as --${previous.name}=${stray})`
        : '';
    return error(`'${stray}' is not a valid flag${hint}`);
  }
  return { kind: 'flags', flags };
}

function error(message: string): ArgvScan {
  return { kind: 'error', message };
}
