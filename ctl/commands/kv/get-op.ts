/**
 * `get` arguments and flags → the key and range options (shared by `get` and `txn`), with
 * etcdctl's validation order and messages.
 */
import type { Command } from 'commander';
import { SortOrder, SortTarget, type GetOptions } from '../../client/index.js';
import { flagBool, flagString, parseInt64, type Flags } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { usageError, type UsageError } from './usage-error.js';

export function addGetFlags(cmd: Command): void {
  cmd
    .option('--consistency <l|s>', 'Linearizable(l) or Serializable(s)', 'l')
    .option('--order <order>', 'Order of results; ASCEND or DESCEND (ASCEND by default)', '')
    .option('--sort-by <target>', 'Sort target; CREATE, KEY, MODIFY, VALUE, or VERSION', '')
    .option('--limit <n>', 'Maximum number of results', '0')
    .option('--prefix', 'Get keys with matching prefix')
    .option('--from-key', 'Get keys that are greater than or equal to the given key using byte compare')
    .option('--rev <rev>', 'Specify the kv revision', '0')
    .option('--keys-only', 'Get only the keys')
    .option('--print-value-only', 'Only write values when using the "simple" output format');
}

export interface GetOp {
  readonly key: string;
  readonly opts: GetOptions;
}

const ORDERS: Readonly<Record<string, SortOrder>> = { ASCEND: SortOrder.Ascend, DESCEND: SortOrder.Descend, '': SortOrder.None };
const TARGETS: Readonly<Record<string, SortTarget>> = {
  CREATE: SortTarget.Create,
  KEY: SortTarget.Key,
  MODIFY: SortTarget.Mod,
  VALUE: SortTarget.Value,
  VERSION: SortTarget.Version,
  '': SortTarget.Key,
};

export function parseGetOp(args: readonly string[], flags: Flags): GetOp | UsageError {
  if (args.length === 0) return usageError('get command needs one argument as key and an optional argument as range_end');
  const prefix = flagBool(flags, 'prefix');
  const fromKey = flagBool(flags, 'fromKey');
  if (prefix && fromKey) return usageError('`--prefix` and `--from-key` cannot be set at the same time, choose one');
  const consistency = flagString(flags, 'consistency', 'l');
  if (consistency !== 's' && consistency !== 'l') return usageError(`unknown consistency flag "${consistency}"`, ExitCode.BadFeature);
  if (args.length > 1 && (prefix || fromKey)) return usageError('too many arguments, only accept one argument when `--prefix` or `--from-key` is set');
  const limit = parseInt64(flagString(flags, 'limit', '0'), 'limit');
  if (typeof limit !== 'bigint') return usageError(limit.message, ExitCode.Error);
  const rev = parseInt64(flagString(flags, 'rev', '0'), 'rev');
  if (typeof rev !== 'bigint') return usageError(rev.message, ExitCode.Error);
  const orderText = flagString(flags, 'order');
  let order = ORDERS[orderText.toUpperCase()];
  if (order === undefined) return usageError(`bad sort order ${orderText}`, ExitCode.BadFeature);
  const targetText = flagString(flags, 'sortBy');
  const target = TARGETS[targetText.toUpperCase()];
  if (target === undefined) return usageError(`bad sort target ${targetText}`, ExitCode.BadFeature);
  // The server returns keys in ascending key order anyway: that sort is not asked for.
  if (target === SortTarget.Key && order === SortOrder.Ascend) order = SortOrder.None;
  return {
    key: args[0],
    opts: {
      ...(args.length > 1 ? { rangeEnd: args[1] } : {}),
      prefix,
      fromKey,
      limit,
      ...(rev > 0n ? { revision: rev } : {}),
      sortOrder: order,
      sortTarget: target,
      serializable: consistency === 's',
      keysOnly: flagBool(flags, 'keysOnly'),
    },
  };
}
