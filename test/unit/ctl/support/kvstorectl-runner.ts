/**
 * Running kvstorectl from tests: `node <build>/ctl/main.js --endpoints=<list> <args…>`, owned by
 * the test registry (killed when the test file ends). The KVSTORECTL_* and ETCDCTL_* variables of
 * the test process are not inherited. `runTool` runs either etcdctl or kvstorectl.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BUILD_ROOT } from '../../../support/paths.js';
import { CtlProcess, etcdctl, type CtlResult } from '../../../support/processes.js';

export const KVSTORECTL_MAIN = join(BUILD_ROOT, 'ctl', 'main.js');

export type Tool = 'etcdctl' | 'kvstorectl';

function ctlEnv(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('ETCDCTL_') && !k.startsWith('KVSTORECTL_')) env[k] = v;
  }
  return { ...env, ...(extra ?? {}) };
}

/** Starts kvstorectl with `--endpoints=<endpoints>` first; owned by the test registry. */
export function spawnKvstorectl(
  endpoints: string | readonly string[],
  args: readonly string[],
  opts: { readonly env?: Readonly<Record<string, string>>; readonly stdin?: boolean } = {},
): CtlProcess {
  const list = typeof endpoints === 'string' ? [endpoints] : endpoints;
  const child = spawn(process.execPath, [KVSTORECTL_MAIN, `--endpoints=${list.join(',')}`, ...args], {
    env: ctlEnv(opts.env),
    detached: true,
    stdio: [opts.stdin === true ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  return new CtlProcess(child);
}

/** Runs kvstorectl to completion (stdin = `input`, then closed), bounded by `timeoutMs`. */
export async function kvstorectl(
  endpoints: string | readonly string[],
  args: readonly string[],
  opts: { readonly input?: string | Buffer; readonly env?: Readonly<Record<string, string>>; readonly timeoutMs?: number } = {},
): Promise<CtlResult> {
  const list = typeof endpoints === 'string' ? [endpoints] : endpoints;
  const child = spawn(process.execPath, [KVSTORECTL_MAIN, `--endpoints=${list.join(',')}`, ...args], {
    env: ctlEnv(opts.env),
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const proc = new CtlProcess(child);
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(opts.input ?? '');
  const timer = setTimeout(() => proc.timeout(), opts.timeoutMs ?? 20_000);
  try {
    return await proc.result();
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `tool` to completion. */
export function runTool(tool: Tool, endpoints: string | readonly string[], args: readonly string[], opts: { readonly input?: string | Buffer; readonly env?: Readonly<Record<string, string>> } = {}): Promise<CtlResult> {
  return tool === 'etcdctl' ? etcdctl(endpoints, args, opts) : kvstorectl(endpoints, args, opts);
}

