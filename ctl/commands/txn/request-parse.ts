/**
 * One request line of `txn` (`get …`, `put …`, `del …` with the commands' own flags) → a
 * RequestOp, parsed by the same argument rules as the top-level commands.
 */
import { Command, CommanderError } from 'commander';
import type { RequestOp } from '../../../proto/gen/etcd/rpc.js';
import { Op } from '../../client/index.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { addDelFlags, parseDelOp } from '../kv/del-op.js';
import { addGetFlags, parseGetOp } from '../kv/get-op.js';
import { addPutFlags, parsePutOp } from '../kv/put-op.js';
import { isUsageError, usageError, type UsageError } from '../kv/usage-error.js';
import { argify } from './argify.js';

const FLAGS: Readonly<Record<string, (cmd: Command) => void>> = { get: addGetFlags, put: addPutFlags, del: addDelFlags };

function parseFlags(name: string, rest: readonly string[]): { args: string[]; flags: Record<string, unknown> } | undefined {
  const cmd = new Command(name).exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  cmd.argument('[args...]').allowExcessArguments(true);
  FLAGS[name](cmd);
  let args: string[] = [];
  cmd.action((a: string[]) => {
    args = a;
  });
  try {
    cmd.parse([...rest], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return undefined;
    throw e;
  }
  return { args, flags: cmd.opts() };
}

export async function parseRequest(line: string): Promise<RequestOp | UsageError> {
  const words = argify(line);
  if (!Array.isArray(words)) return usageError(words.message, ExitCode.InvalidInput);
  if (words.length < 2) return usageError(`invalid txn compare request: ${line}`, ExitCode.InvalidInput);
  const name = words[0];
  const parsed = FLAGS[name] === undefined ? undefined : parseFlags(name, words.slice(1));
  if (parsed === undefined) return usageError(`invalid txn request: ${line}`, ExitCode.InvalidInput);
  if (name === 'get') {
    const op = parseGetOp(parsed.args, parsed.flags);
    return isUsageError(op) ? op : Op.get(op.key, op.opts);
  }
  if (name === 'put') {
    const op = await parsePutOp(parsed.args, parsed.flags, () => Promise.resolve(Buffer.alloc(0)));
    return isUsageError(op) ? op : Op.put(op.key, op.value, op.opts);
  }
  const op = parseDelOp(parsed.args, parsed.flags);
  return isUsageError(op) ? op : Op.del(op.key, op.opts);
}
