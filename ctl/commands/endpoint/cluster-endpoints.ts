/**
 * The endpoints an `endpoint …` command addresses: --endpoints, or with `--cluster` the client
 * URLs of every member in the member list.
 */
import type { Command } from 'commander';
import { flagBool, type Flags } from '../../cli/command-spec.js';
import type { CommandContext } from '../../cli/context.js';
import { ExitCode } from '../../cli/exit-codes.js';

export function addClusterFlag(cmd: Command): void {
  cmd.option('--cluster', 'use all endpoints from the cluster member list');
}

/** The endpoints, or the exit code after printing the failure. */
export async function endpointsOf(ctx: CommandContext, flags: Flags): Promise<readonly string[] | number> {
  if (!flagBool(flags, 'cluster')) return ctx.global.endpoints;
  const client = await ctx.mustClient();
  if (typeof client === 'number') return client;
  const r = await client.cluster.memberList();
  if (!r.ok) return ctx.fail(ExitCode.Error, `failed to fetch endpoints from etcd cluster member list: ${r.error.message}`);
  return r.value.members.flatMap((m) => m.clientURLs);
}
