/**
 * Structured logging: one pino logger per server, created by main.ts and passed down (there is
 * no global logger).
 *
 * Line format (zap-like JSON, one object per line):
 *   {"level":"info","ts":"2024-05-01T10:20:30.123Z","msg":"ready to serve client requests","member-id":"8e9e05c52164694d"}
 * - `level`: lowercase label (debug, info, warn, error, panic, fatal);
 * - `ts`: ISO-8601 UTC time;
 * - `msg`: the message, right after `ts`;
 * - then the structured fields: the logger's `name` (if any), fields bound with `child`, then
 *   the call's own fields. Keys use etcd's kebab-case names where etcd has them (`member-id`,
 *   `cluster-version`, ...). An Error passed as first argument is logged under `err`.
 *
 * Convention for scoped loggers: derive them with `child(logger, { component: 'raft', ... })`
 * (pino's own `logger.child(fields)` is equivalent: bound fields are moved after `msg` either
 * way). Children are cheap; make one per component or per long-lived object, not per call.
 * Log 64-bit ids as hex strings (config/identity.ts `formatId`), not as bigint.
 *
 * Calling forms: `log.info('text %s', arg)`, `log.info({ key: v }, 'text')`, `log.warn(err, 'text')`.
 */
import { format } from 'node:util';
import { pino, type DestinationStream, type Logger } from 'pino';

export interface LoggerOptions {
  /** debug, info, warn, error, panic (filters like fatal), fatal; also trace and silent. */
  readonly level: string;
  /** `default`/`stderr` → fd 2, `stdout` → fd 1, `systemd/journal` → fd 2, anything else: a file path, appended to. */
  readonly outputs: readonly string[];
  /** Logged as the `name` field of every line. */
  readonly name?: string;
  /** Replaces `outputs` (tests capture lines this way). */
  readonly destination?: DestinationStream;
}

const FIELDS = Symbol('kvstore.log.fields');
type Fields = Readonly<Record<string, unknown>>;
type WithFields = { [FIELDS]?: Fields };

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'panic', 'fatal', 'silent'];

/**
 * Creates the server logger. Throws when the level is unknown (configuration validates it
 * first) or when a file output cannot be opened.
 */
export function createLogger(options: LoggerOptions): Logger {
  if (!LEVELS.includes(options.level)) throw new Error(`unknown log level ${JSON.stringify(options.level)}`);
  const logger = pino(
    {
      // zap's `panic` sits between error and fatal; nothing here logs at it, so it filters like fatal.
      level: options.level === 'panic' ? 'fatal' : options.level,
      base: null,
      messageKey: 'msg',
      timestamp: () => `,"ts":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        logMethod(args, method) {
          method.apply(this, [arrange(this as WithFields, args)] as unknown as Parameters<typeof method>);
        },
      },
      // pino serialises child bindings before `msg`; move them into FIELDS, written after it.
      onChild(instance) {
        const own = instance.bindings();
        (instance as WithFields)[FIELDS] = { ...((instance as WithFields)[FIELDS] ?? {}), ...own };
        (instance as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] = '';
      },
    },
    options.destination ?? openOutputs(options.outputs),
  );
  if (options.name !== undefined) (logger as WithFields)[FIELDS] = { name: options.name };
  return logger;
}

/** A logger that adds `fields` to every line, after `msg` (see the header for the convention). */
export function child(logger: Logger, fields: Fields): Logger {
  return logger.child(fields);
}

/** Turns the call's arguments into one object whose first key is `msg`. */
function arrange(self: WithFields, args: readonly unknown[]): Record<string, unknown> {
  const bound = self[FIELDS] ?? {};
  const [first, ...rest] = args;
  let own: Record<string, unknown> = {};
  let msg: string | undefined;
  if (first instanceof Error) {
    own = { err: first };
    msg = rest.length > 0 ? format(...rest) : first.message;
  } else if (typeof first === 'object' && first !== null) {
    own = first as Record<string, unknown>;
    msg = rest.length > 0 ? format(...rest) : undefined;
  } else {
    msg = format(first, ...rest);
  }
  return msg === undefined ? { ...bound, ...own } : { msg, ...bound, ...own };
}

function openOutputs(outputs: readonly string[]): DestinationStream {
  const targets = [...new Set((outputs.length === 0 ? ['default'] : outputs).map(targetOf))];
  const streams = targets.map((t) =>
    typeof t === 'number' ? pino.destination({ dest: t, sync: true }) : pino.destination({ dest: t, append: true, mkdir: true, sync: true }),
  );
  const [only] = streams;
  if (streams.length === 1 && only !== undefined) return only;
  return pino.multistream(
    streams.map((stream) => ({ stream, level: 'trace' as const })),
    { levels: pino.levels.values },
  );
}

function targetOf(output: string): number | string {
  if (output === 'default' || output === 'stderr' || output === 'systemd/journal') return 2;
  if (output === 'stdout') return 1;
  return output;
}
