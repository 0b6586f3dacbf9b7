/**
 * `lock <lockname> [exec-command arg1 …]`: acquires the named lock (etcd's lock recipe, session
 * TTL `--ttl`). With a command: runs it holding the lock (ETCD_LOCK_KEY and ETCD_LOCK_REV in its
 * environment), then releases. Without: prints the lock key and holds the lock until
 * interrupted (then releases, exit 0) or until the session expires.
 */
import { spawn } from 'node:child_process';
import { flagString, parseInt64, type CommandSpec } from '../cli/command-spec.js';
import type { CommandContext } from '../cli/context.js';
import { ExitCode } from '../cli/exit-codes.js';
import { newMutex, newSession } from '../client/index.js';

function runHolding(ctx: CommandContext, argv: readonly string[], env: Readonly<Record<string, string>>): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { env: { ...env, ...ctx.io.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (b: Buffer) => ctx.io.stdout.write(b));
    child.stderr.on('data', (b: Buffer) => ctx.io.stderr.write(b));
    child.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ENOENT' ? `fork/exec ${argv[0]}: no such file or directory` : err.message));
    child.once('close', (code, signal) => resolve(code === 0 ? undefined : signal !== null ? `signal: ${signal}` : `exit status ${code ?? 1}`));
  });
}

function whenAborted(signal: AbortSignal): Promise<'interrupted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('interrupted');
    else signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
}

export const lockCommand: CommandSpec = {
  path: ['lock'],
  usage: '<lockname> [exec-command arg1 arg2 ...]',
  summary: 'Acquires a named lock',
  options: (cmd) => {
    cmd.option('--ttl <seconds>', 'timeout for session', '10');
  },
  run: async (ctx, args, flags) => {
    if (args.length === 0) return ctx.fail(ExitCode.BadArgs, 'lock takes a lock name argument and an optional command to execute');
    const ttl = parseInt64(flagString(flags, 'ttl', '10'), 'ttl');
    if (typeof ttl !== 'bigint') return ctx.fail(ExitCode.Error, ttl.message);
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    ctx.io.claimInterrupt();
    const signal = ctx.io.interrupt;
    const session = await newSession(client, { ttl: Number(ttl), signal });
    if (!session.ok) return ctx.fail(ExitCode.Error, session.error.message);
    try {
      const m = newMutex(session.value, args[0]);
      const locked = await m.lock(signal);
      if (!locked.ok) return ctx.fail(ExitCode.Error, locked.error.message);
      if (args.length > 1) {
        const failed = await runHolding(ctx, args.slice(1), { ETCD_LOCK_KEY: m.key, ETCD_LOCK_REV: String(locked.value?.revision ?? 0n) });
        const unlocked = await m.unlock({ timeoutMs: 0 });
        if (failed !== undefined) return ctx.fail(ExitCode.Error, failed);
        return unlocked.ok ? ExitCode.Success : ctx.fail(ExitCode.Error, unlocked.error.message);
      }
      const k = await client.kv.get(m.key, { signal });
      if (!k.ok) return ctx.fail(ExitCode.Error, k.error.message);
      if (k.value.kvs.length === 0) return ctx.fail(ExitCode.Error, 'lock lost on init');
      const printed = ctx.printed(ctx.printer.get(k.value));
      if (printed !== ExitCode.Success) return printed;
      const why = await Promise.race([whenAborted(signal), session.value.done.then(() => 'expired' as const)]);
      if (why === 'expired') return ctx.fail(ExitCode.Error, 'session expired');
      const unlocked = await m.unlock({ timeoutMs: ctx.global.commandTimeoutMs });
      return unlocked.ok ? ExitCode.Success : ctx.fail(ExitCode.Error, unlocked.error.message);
    } finally {
      await session.value.close(false);
    }
  },
};
