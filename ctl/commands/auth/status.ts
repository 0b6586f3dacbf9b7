/**
 * `auth status` (as etcdctl 3.5): `Authentication Status: <bool>` and `AuthRevision: <n>`;
 * `-w json` prints the response. Needs a cluster at 3.5 (`etcdserver: not capable` before).
 */
import type { CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { goJson, obj, omit } from '../../printer/go-json.js';

export const authStatusCommand: CommandSpec = {
  path: ['auth', 'status'],
  usage: '',
  summary: 'Returns authentication status',
  run: async (ctx, args) => {
    if (args.length !== 0) return ctx.fail(ExitCode.BadArgs, 'auth status command does not accept any arguments');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const r = await client.auth.status();
    if (!r.ok) return ctx.fail(ExitCode.Error, r.error.message);
    const { header: h, enabled, authRevision } = r.value;
    if (ctx.global.writeOut === 'json') {
      const header = h && obj(omit('cluster_id', h.clusterId), omit('member_id', h.memberId), omit('revision', h.revision), omit('raft_term', h.raftTerm));
      ctx.io.stdout.write(`${goJson(obj(omit('header', header), omit('enabled', enabled), omit('authRevision', authRevision)))}\n`);
    } else {
      ctx.io.stdout.write(`Authentication Status: ${enabled}\nAuthRevision: ${authRevision}\n`);
    }
    return ExitCode.Success;
  },
};
