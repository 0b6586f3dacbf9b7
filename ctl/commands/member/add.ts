/**
 * `member add <name> --peer-urls=… [--learner]`. With the simple format it also prints the
 * ETCD_* settings for starting the new member, from a member list answered by the same member
 * that added it (re-reading through a quorum get until it is).
 */
import { flagBool, flagString, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { goQuote } from '../../printer/go-format.js';

export const memberAddCommand: CommandSpec = {
  path: ['member', 'add'],
  usage: '<memberName> [options]',
  summary: 'Adds a member into the cluster',
  options: (cmd) => {
    cmd.option('--peer-urls <urls>', 'comma separated peer URLs for the new member.', '').option('--learner', 'indicates if the new member is raft learner');
  },
  run: async (ctx, args, flags) => {
    if (args.length < 1) return ctx.fail(ExitCode.BadArgs, 'member name not provided');
    if (args.length > 1) {
      let ev = 'too many arguments';
      for (const s of args) if (s.toLowerCase().startsWith('http')) ev += `, did you mean --peer-urls=${s}`;
      return ctx.fail(ExitCode.BadArgs, ev);
    }
    const name = args[0];
    const peerUrls = flagString(flags, 'peerUrls');
    if (peerUrls === '') return ctx.fail(ExitCode.BadArgs, 'member peer urls not provided');
    const urls = peerUrls.split(',');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const added = await client.cluster.memberAdd(urls, { isLearner: flagBool(flags, 'learner') });
    if (!added.ok) return ctx.fail(ExitCode.Error, added.error.message);
    const printed = ctx.printed(ctx.printer.memberAdd(added.value));
    if (printed !== ExitCode.Success || ctx.global.writeOut !== 'simple') return printed;
    const newId = added.value.member?.ID ?? 0n;
    let answeredBy = added.value.header?.memberId ?? 0n;
    let list = await client.cluster.memberList();
    for (;;) {
      if (!list.ok) return ctx.fail(ExitCode.Error, list.error.message);
      if ((list.value.header?.memberId ?? 0n) === answeredBy) break;
      const g = await client.kv.get('_');
      if (!g.ok) return ctx.fail(ExitCode.Error, g.error.message);
      answeredBy = g.value.header?.memberId ?? 0n;
      list = await client.cluster.memberList();
    }
    const conf = list.value.members.flatMap((m) => m.peerURLs.map((u) => `${m.ID === newId ? name : m.name}=${u}`));
    ctx.io.stdout.write(
      `\nETCD_NAME=${goQuote(name)}\nETCD_INITIAL_CLUSTER=${goQuote(conf.join(','))}\nETCD_INITIAL_ADVERTISE_PEER_URLS=${goQuote(urls.join(','))}\nETCD_INITIAL_CLUSTER_STATE="existing"\n`,
    );
    return ExitCode.Success;
  },
};
