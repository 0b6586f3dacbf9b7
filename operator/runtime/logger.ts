/**
 * The operator's pino logger: the same one-JSON-object-per-line format as the kvstore members
 * (server/log/logger.ts: `level`, `ts`, `msg`, then fields), with `name: kvstore-operator`.
 * Created once by main.ts and passed down (no global logger). Conventional fields: `cluster`
 * (`namespace/name`), `member`, `action`, `key`, `err`.
 */
import type { DestinationStream, Logger } from 'pino';
import { createLogger } from '../../server/log/logger.js';

export const OPERATOR_LOGGER_NAME = 'kvstore-operator';

export interface OperatorLoggerOptions {
  /** trace, debug, info, warn, error, fatal, silent (default info). */
  readonly level?: string;
  /** `stderr` (default), `stdout`, or file paths (appended to). */
  readonly outputs?: readonly string[];
  /** Replaces `outputs` (tests capture lines this way). */
  readonly destination?: DestinationStream;
}

/** Throws on an unknown level or an output file that cannot be opened (main.ts reports it). */
export function createOperatorLogger(options: OperatorLoggerOptions = {}): Logger {
  return createLogger({
    level: options.level ?? 'info',
    outputs: options.outputs ?? ['stderr'],
    name: OPERATOR_LOGGER_NAME,
    ...(options.destination !== undefined ? { destination: options.destination } : {}),
  });
}
