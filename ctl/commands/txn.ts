/**
 * `txn [-i]`: reads compares, then success requests, then failure requests from stdin (each
 * list ends at an empty line; `-i` prints a prompt before each list), commits them as one
 * transaction (no deadline, like etcdctl) and prints SUCCESS/FAILURE and the answers.
 * Input ending before the third empty line is `Error: EOF` (exit 3).
 */
import type { Compare, RequestOp } from '../../proto/gen/etcd/rpc.js';
import { flagBool, type CommandSpec } from '../cli/command-spec.js';
import type { CommandContext } from '../cli/context.js';
import { ExitCode } from '../cli/exit-codes.js';
import { LineReader } from '../cli/stdin.js';
import { isUsageError } from './kv/usage-error.js';
import { parseCompare } from './txn/compare-parse.js';
import { parseRequest } from './txn/request-parse.js';

type Failed = { readonly exit: number };

async function readSection<T>(ctx: CommandContext, lines: LineReader, parse: (line: string) => Promise<T | Failed>): Promise<T[] | Failed> {
  const out: T[] = [];
  for (;;) {
    const raw = await lines.next();
    if (raw === undefined || !raw.endsWith('\n')) return { exit: ctx.fail(ExitCode.InvalidInput, 'EOF') };
    const line = raw.trim();
    if (line === '') return out;
    const v = await parse(line);
    if (typeof v === 'object' && v !== null && 'exit' in v) return v;
    out.push(v as T);
  }
}

export const txnCommand: CommandSpec = {
  path: ['txn'],
  usage: '[options]',
  summary: 'Txn processes all the requests in one transaction',
  options: (cmd) => {
    cmd.option('-i, --interactive', 'Input transaction in interactive mode');
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 0) return ctx.fail(ExitCode.BadArgs, 'txn command does not accept argument');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const interactive = flagBool(flags, 'interactive');
    const prompt = (s: string): void => {
      if (interactive) ctx.io.stdout.write(`${s}\n`);
    };
    const lines = new LineReader(ctx.io.stdin);
    const parseCmp = (line: string): Promise<Compare | Failed> => {
      const c = parseCompare(line);
      if (!('message' in c)) return Promise.resolve(c);
      if (c.panic === true) {
        ctx.io.stderr.write(`panic: ${c.message}\n`);
        return Promise.resolve({ exit: ExitCode.BadConnection });
      }
      return Promise.resolve({ exit: ctx.fail(ExitCode.InvalidInput, c.message) });
    };
    const parseOp = async (line: string): Promise<RequestOp | Failed> => {
      const op = await parseRequest(line);
      return isUsageError(op) ? { exit: ctx.fail(op.code, op.usageError) } : op;
    };
    prompt('compares:');
    const compares = await readSection(ctx, lines, parseCmp);
    if (!Array.isArray(compares)) return compares.exit;
    prompt('success requests (get, put, del):');
    const success = await readSection(ctx, lines, parseOp);
    if (!Array.isArray(success)) return success.exit;
    prompt('failure requests (get, put, del):');
    const failure = await readSection(ctx, lines, parseOp);
    if (!Array.isArray(failure)) return failure.exit;
    const r = await client.kv.txn({ compare: compares, success, failure }, { timeoutMs: 0 });
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    return ctx.printed(ctx.printer.txn(r.value));
  },
};
