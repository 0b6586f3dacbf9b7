/**
 * `elect <election-name> [proposal]` and `elect -l <election-name>`: campaigns with the proposal
 * (etcd's election recipe, session TTL 60 s), prints the leader key and value once elected and
 * leads until interrupted (then resigns, exit 0); with `-l` prints every leader as it changes.
 */
import { flagBool, type CommandSpec } from '../cli/command-spec.js';
import { ExitCode } from '../cli/exit-codes.js';
import { newElection, newSession } from '../client/index.js';

export const electCommand: CommandSpec = {
  path: ['elect'],
  usage: '<election-name> [proposal]',
  summary: 'Observes and participates in leader election',
  options: (cmd) => {
    cmd.option('-l, --listen', 'observation mode');
  },
  run: async (ctx, args, flags) => {
    if (args.length !== 1 && args.length !== 2) return ctx.fail(ExitCode.BadArgs, 'elect takes one election name argument and an optional proposal argument');
    const listen = flagBool(flags, 'listen');
    if (args.length === 1 && !listen) return ctx.fail(ExitCode.BadArgs, 'no proposal argument but -l not set');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    ctx.io.claimInterrupt();
    const signal = ctx.io.interrupt;
    const session = await newSession(client, { signal });
    if (!session.ok) return ctx.fail(ExitCode.Error, session.error.message);
    try {
      const e = newElection(session.value, args[0]);
      if (args.length === 1) {
        for await (const u of e.observe(signal)) {
          const printed = ctx.printed(ctx.printer.get({ header: u.header, kvs: [u.kv], more: false, count: 1n }));
          if (printed !== ExitCode.Success) return printed;
        }
        return signal.aborted ? ExitCode.Success : ctx.fail(ExitCode.Error, 'elect: observer lost');
      }
      const won = await e.campaign(args[1], signal);
      if (!won.ok) return ctx.fail(ExitCode.Error, won.error.message);
      const k = await client.kv.get(e.key, { signal });
      if (!k.ok) return ctx.fail(ExitCode.Error, k.error.message);
      const printed = ctx.printed(ctx.printer.get(k.value));
      if (printed !== ExitCode.Success) return printed;
      const why = await Promise.race([
        new Promise<'interrupted'>((resolve) => (signal.aborted ? resolve('interrupted') : signal.addEventListener('abort', () => resolve('interrupted'), { once: true }))),
        session.value.done.then(() => 'expired' as const),
      ]);
      if (why === 'expired') return ctx.fail(ExitCode.Error, 'elect: session expired');
      const resigned = await e.resign({ timeoutMs: 0 });
      return resigned.ok ? ExitCode.Success : ctx.fail(ExitCode.Error, resigned.error.message);
    } finally {
      await session.value.close(false);
    }
  },
};
