/**
 * The --help text, generated from the flag table for one version line (defaults can differ).
 * Layout follows etcd's usage text: a usage header, then one section per flag group with
 * `--flag 'default'` and an indented description.
 */
import type { VersionProfile } from '../version/profile.js';
import { SERVER_VERSION_ENV, DEFAULT_SERVER_VERSION } from '../version/version.js';
import { FlagGroup, defaultText, type FlagSpec } from './flag-spec.js';
import { FLAGS } from './flag-table.js';
import { META_FLAGS } from './flags-logging.js';

const HEADER = `Usage:

  kvstore [flags]
    Start a kvstore server.

  kvstore --version
    Show the version of kvstore.

  kvstore -h | --help
    Show the help information about kvstore.

  kvstore --config-file
    Path to the server configuration file. Note that if a configuration file is provided, other command line flags and environment variables will be ignored.
`;

export function helpText(profile: VersionProfile): string {
  const sections = Object.values(FlagGroup).map((group) => {
    const rows = FLAGS.filter((f) => f.group === group && !META_FLAGS.includes(f.name));
    return `${group}:\n${rows.map((f) => describe(f, profile)).join('')}`;
  });
  const footer = [
    'Environment:',
    '',
    '  Every flag can also be given as KVSTORE_<FLAG_IN_UPPER_SNAKE>, e.g. KVSTORE_DATA_DIR for --data-dir;',
    '  a flag on the command line and the same variable must not both be set.',
    `  ${SERVER_VERSION_ENV} selects the version presented: 3.2.x, 3.3.x, 3.4.x or 3.5.x (default ${DEFAULT_SERVER_VERSION}).`,
    '',
  ].join('\n');
  return [HEADER, ...sections, footer].join('\n');
}

function describe(spec: FlagSpec, profile: VersionProfile): string {
  const def = spec.defaultHelp ?? defaultText(spec, profile);
  const head = `  --${spec.name} '${def}'`;
  const notes: string[] = [];
  if (spec.since !== undefined) notes.push(`since ${spec.since}`);
  if (spec.support === 'ignored') notes.push('no effect in kvstore');
  if (spec.support === 'unsupported') notes.push('not supported');
  const suffix = notes.length > 0 ? ` [${notes.join('; ')}]` : '';
  return `${head}\n    ${spec.help}${suffix}\n`;
}
