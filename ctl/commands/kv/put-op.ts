/**
 * `put` arguments and flags → key, value and options (shared by `put` and `txn`). The value
 * comes from the second argument or, when absent, from all of stdin.
 */
import type { Command } from 'commander';
import type { PutOptions } from '../../client/index.js';
import { flagBool, flagString, parseInt64, type Flags } from '../../cli/command-spec.js';
import { usageError, type UsageError } from './usage-error.js';

export function addPutFlags(cmd: Command): void {
  cmd
    .option('--lease <id>', 'lease ID (in hexadecimal) to attach to the key', '0')
    .option('--prev-kv', 'return the previous key-value pair before modification')
    .option('--ignore-value', 'updates the key using its current value')
    .option('--ignore-lease', 'updates the key using its current lease');
}

export interface PutOp {
  readonly key: string;
  readonly value: Buffer;
  readonly opts: PutOptions;
}

const NEEDS = 'put command needs 1 argument and input from stdin or 2 arguments';

export async function parsePutOp(args: readonly string[], flags: Flags, readStdin: () => Promise<Buffer>): Promise<PutOp | UsageError> {
  if (args.length === 0) return usageError(NEEDS);
  const ignoreValue = flagBool(flags, 'ignoreValue');
  if (ignoreValue && args.length > 1) return usageError("put command needs only 1 argument when 'ignore-value' is set");
  let value: Buffer = Buffer.alloc(0);
  if (!ignoreValue) {
    if (args.length > 1) value = Buffer.from(args[1], 'utf8');
    else {
      value = await readStdin();
      if (value.length === 0) return usageError(NEEDS);
    }
  }
  const leaseText = flagString(flags, 'lease', '0');
  const lease = parseInt64(leaseText, 'lease', 16);
  if (typeof lease !== 'bigint') return usageError(`bad lease ID (strconv.ParseInt: parsing ${JSON.stringify(leaseText)}: invalid syntax), expecting ID in Hex`);
  return {
    key: args[0],
    value,
    opts: { lease, prevKv: flagBool(flags, 'prevKv'), ignoreValue, ignoreLease: flagBool(flags, 'ignoreLease') },
  };
}
