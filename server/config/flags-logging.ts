/** Flag table, part 4: logging, profiling/monitoring, and the meta flags (--config-file, --version). */
import { BOOL, FlagGroup, LIST, STRING, oneOf, type FlagSpec } from './flag-spec.js';

const G = FlagGroup.Logging;
const M = FlagGroup.Profiling;

export const LOGGING_FLAGS: readonly FlagSpec[] = [
  {
    name: 'logger', type: oneOf('zap', 'capnslog'), default: (p) => p.defaultLogger, group: G, support: 'yes', since: '3.4',
    help: "Currently only supports 'zap' for structured logging ('capnslog' is accepted; output is JSON either way).",
  },
  {
    name: 'log-outputs', type: LIST, default: 'default', group: G, support: 'yes', since: '3.4',
    help: "Specify 'stdout' or 'stderr' to skip journald logging even when running under systemd, or list of comma separated output targets.",
  },
  {
    name: 'log-level', type: oneOf('debug', 'info', 'warn', 'error', 'panic', 'fatal'), default: 'info', group: G, support: 'yes', since: '3.4',
    help: 'Configures log level. Only supports debug, info, warn, error, panic, or fatal.',
  },
  { name: 'enable-log-rotation', type: BOOL, default: 'false', help: 'Enable log rotation of a single log-outputs file target.', group: G, support: 'ignored', since: '3.5' },
  {
    name: 'log-rotation-config-json', type: STRING, default: '', group: G, support: 'ignored', since: '3.5',
    help: 'Configures log rotation if enabled with a JSON logger config.',
  },
  {
    name: 'debug', type: BOOL, default: 'false', group: G, support: 'yes', deprecated: { since: '3.4', advice: 'use --log-level=debug instead' },
    help: 'Enable debug-level logging (deprecated: use --log-level=debug).',
  },
  {
    name: 'log-output', type: STRING, default: '', group: G, support: 'yes', since: '3.3', deprecated: { since: '3.4', advice: 'use --log-outputs instead' },
    help: "Specify 'stdout' or 'stderr' or a file path (deprecated: use --log-outputs).",
  },
  {
    name: 'log-package-levels', type: STRING, default: '', group: G, support: 'ignored', deprecated: { since: '3.4', advice: 'use --log-level instead' },
    help: "Specify a particular log level for each package (eg, 'etcdmain=CRITICAL,etcdserver=DEBUG') (deprecated, ignored).",
  },

  {
    name: 'enable-pprof', type: BOOL, default: 'false', group: M, support: 'ignored',
    help: 'Enable runtime profiling data via HTTP server. Address is at client URL + "/debug/pprof/".',
  },
  {
    name: 'metrics', type: oneOf('basic', 'extensive'), default: 'basic', group: M, support: 'yes', since: '3.3',
    help: "Set level of detail for exported metrics, specify 'extensive' to include server side grpc histogram metrics.",
  },

  {
    name: 'config-file', type: STRING, default: '', group: G, support: 'yes', yaml: null,
    help: 'Path to the server configuration file. Other command line flags and environment variables are ignored when it is set.',
  },
  { name: 'version', type: BOOL, default: 'false', help: 'Print the version and exit.', group: G, support: 'yes', yaml: null },
];

/** Names listed in --help's usage header rather than in a group. */
export const META_FLAGS: readonly string[] = ['config-file', 'version'];
