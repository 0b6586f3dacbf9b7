/**
 * `move-leader <transferee-member-id>`: finds the leader among the endpoints (Status of each,
 * one at a time) and asks it to hand leadership to the target, all within one command timeout.
 */
import type { CommandSpec } from '../cli/command-spec.js';
import { isSetupError } from '../cli/context.js';
import { ExitCode } from '../cli/exit-codes.js';
import type { Client } from '../client/index.js';

export const moveLeaderCommand: CommandSpec = {
  path: ['move-leader'],
  usage: '<transferee-member-id>',
  summary: 'Transfers leadership to another etcd cluster member.',
  run: async (ctx, args) => {
    if (args.length !== 1) return ctx.fail(ExitCode.BadArgs, 'move-leader command needs 1 argument');
    if (!/^[0-9a-fA-F]+$/.test(args[0]) || BigInt(`0x${args[0]}`) > 0xffffffffffffffffn) {
      return ctx.fail(ExitCode.BadArgs, `strconv.ParseUint: parsing ${JSON.stringify(args[0])}: invalid syntax`);
    }
    const target = BigInt(`0x${args[0]}`);
    const deadline = ctx.io.now() + ctx.global.commandTimeoutMs;
    const left = (): number => Math.max(1, deadline - ctx.io.now());
    let leader: { client: Client; id: bigint } | undefined;
    for (const ep of ctx.global.endpoints) {
      const cli = ctx.client([ep]);
      if (isSetupError(cli)) return ctx.fail(ExitCode.BadConnection, cli.setupError);
      const r = await cli.maintenance.status({ endpoint: ep, timeoutMs: left() });
      if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
      if (r.value.header !== undefined && r.value.header.memberId === r.value.leader) {
        leader = { client: cli, id: r.value.leader };
        break;
      }
    }
    if (leader === undefined) return ctx.fail(ExitCode.BadArgs, `no leader endpoint given at [${ctx.global.endpoints.join(' ')}]`);
    const moved = await leader.client.maintenance.moveLeader(target, { timeoutMs: left() });
    if (!moved.ok) return ctx.fail(ExitCode.Error, moved.error.message);
    return ctx.printed(ctx.printer.moveLeader(leader.id, target, moved.value));
  },
};
