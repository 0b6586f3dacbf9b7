/**
 * `del` arguments and flags → key and range options (shared by `del` and `txn`).
 */
import type { Command } from 'commander';
import type { DeleteOptions } from '../../client/index.js';
import { flagBool, type Flags } from '../../cli/command-spec.js';
import { usageError, type UsageError } from './usage-error.js';

export function addDelFlags(cmd: Command): void {
  cmd
    .option('--prefix', 'delete keys with matching prefix')
    .option('--prev-kv', 'return deleted key-value pairs')
    .option('--from-key', 'delete keys that are greater than or equal to the given key using byte compare');
}

export interface DelOp {
  readonly key: string;
  readonly opts: DeleteOptions;
}

export function parseDelOp(args: readonly string[], flags: Flags): DelOp | UsageError {
  if (args.length === 0 || args.length > 2) return usageError('del command needs one argument as key and an optional argument as range_end');
  const prefix = flagBool(flags, 'prefix');
  const fromKey = flagBool(flags, 'fromKey');
  if (prefix && fromKey) return usageError('`--prefix` and `--from-key` cannot be set at the same time, choose one');
  if (args.length > 1 && (prefix || fromKey)) return usageError('too many arguments, only accept one argument when `--prefix` or `--from-key` is set');
  return { key: args[0], opts: { ...(args.length > 1 ? { rangeEnd: args[1] } : {}), prefix, fromKey, prevKv: flagBool(flags, 'prevKv') } };
}
