/**
 * What the `auth`, `user` and `role` commands share: the auth printer for the chosen
 * format, the call-then-print frame, and reading a password as etcdctl does.
 */
import type { Client, Result } from '../../client/index.js';
import type { CommandContext } from '../../cli/context.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { LineReader } from '../../cli/stdin.js';
import { makeAuthPrinter, type AuthPrinter } from '../../printer/auth.js';
import type { PrintOutcome } from '../../printer/index.js';

export function authPrinter(ctx: CommandContext): AuthPrinter {
  return makeAuthPrinter(ctx.global.writeOut, { out: ctx.io.stdout, err: ctx.io.stderr, hex: false, valueOnly: false });
}

/** Runs `call` on the client, then prints its value with `print` (errors: `Error: …`, exit 1). */
export async function callAndPrint<T>(
  ctx: CommandContext,
  call: (c: Client) => Promise<Result<T>>,
  print: (p: AuthPrinter, value: T) => PrintOutcome,
): Promise<number> {
  const client = await ctx.mustClient();
  if (typeof client === 'number') return client;
  const r = await call(client);
  if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
  return ctx.printed(print(authPrinter(ctx), r.value));
}

/** `fmt.Scanf("%s")`: the first whitespace-separated word of stdin (empty when none). */
export async function scanWord(ctx: CommandContext): Promise<string> {
  const line = await new LineReader(ctx.io.stdin).next();
  return (line ?? '').trim().split(/\s+/)[0] ?? '';
}

/**
 * The password prompt of etcdctl (`Password of <name>: `, then a confirmation); the
 * answers are read from stdin line by line. A failure is `[exit code, message]`.
 */
export async function askPassword(ctx: CommandContext, name: string): Promise<string | readonly [ExitCode, string]> {
  const lines = new LineReader(ctx.io.stdin);
  const ask = async (prompt: string): Promise<string> => {
    ctx.io.stdout.write(prompt);
    return ((await lines.next()) ?? '').replace(/\r?\n$/, '');
  };
  const first = await ask(`Password of ${name}: `);
  if (first.length === 0) return [ExitCode.BadArgs, 'empty password'];
  const second = await ask(`Type password of ${name} again for confirmation: `);
  if (first !== second) return [ExitCode.BadArgs, 'given passwords are different'];
  return first;
}
