/**
 * Running two of the suite's tests at once. Each test binds the same fixed ports (20000 and up,
 * 23790), so two at once need two network namespaces: a test process is started under
 * `unshare -n`, with its own loopback brought up (`ip link set lo up`), and its members can only
 * reach each other. Each worker also has its own scratch tree (the suite writes files beside its
 * tests and in TMPDIR). Needs the right to create a network namespace (root, or a user namespace)
 * and `ip` (Debian's iproute2); without them the runner goes one test at a time.
 */
import { spawnSync } from 'node:child_process';

/** The command line that runs `binary args…` in a network namespace of its own. */
export function isolated(binary: string, args: readonly string[]): [string, string[]] {
  return ['unshare', ['--net', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', binary, ...args]];
}

/** Why tests cannot run in namespaces of their own here, or undefined when they can. */
export function isolationProblem(): string | undefined {
  const r = spawnSync('unshare', ['--net', 'sh', '-c', 'ip link set lo up'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error) return `cannot run unshare: ${r.error.message}`;
  if (r.status !== 0) return `unshare --net failed (${r.status}): ${(r.stderr ?? '').trim().split('\n')[0] ?? ''}`;
  return undefined;
}
