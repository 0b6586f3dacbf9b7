/**
 * A proxy process (`<binary> gateway start …` or `<binary> grpc-proxy start …`, kvstore's or
 * etcd's), started detached and owned by the registry, ready once it logs `readyLine`.
 */
import { spawn } from 'node:child_process';
import { eventually } from './eventually.js';
import { ETCD_BIN, KVSTORE_MAIN } from './paths.js';
import { killGroup, registry } from './registry.js';

export interface ProxyProcess {
  output(): string;
  stop(): Promise<void>;
}

/** The command line that runs `binary` (`kvstore` or `etcd`) with `args`. */
export function proxyCommand(binary: 'kvstore' | 'etcd', args: readonly string[]): [string, string[]] {
  return binary === 'kvstore' ? [process.execPath, [KVSTORE_MAIN, ...args]] : [ETCD_BIN, [...args]];
}

export async function startProxy(binary: 'kvstore' | 'etcd', args: readonly string[], readyLine: string): Promise<ProxyProcess> {
  const [cmd, argv] = proxyCommand(binary, args);
  const child = spawn(cmd, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  registry.track(child);
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (out += s));
  await eventually(`${binary} ${args.slice(0, 2).join(' ')} logs "${readyLine}"`, async () => {
    if (child.exitCode !== null) throw new Error(`${binary} ${args.join(' ')} exited ${child.exitCode}:\n${out}`);
    return out.includes(readyLine) ? true : undefined;
  });
  return {
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        killGroup(child, 'SIGTERM');
      }),
  };
}

/** Runs `binary args…` to its end; its exit code and everything it printed. */
export function runToEnd(binary: 'kvstore' | 'etcd', args: readonly string[], timeoutMs = 20_000): Promise<{ code: number | null; output: string }> {
  const [cmd, argv] = proxyCommand(binary, args);
  const child = spawn(cmd, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  registry.track(child);
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (out += s));
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: out });
    }),
  );
}
