/**
 * Loading N keys into a server: the Go clientv3 loader (bench/scale/loader, built offline in
 * GOPATH mode against Debian's golang-etcd-server-dev) when Go is there, otherwise a Node
 * loader on the `etcd3` client with the same keys, values and number of in-flight puts.
 * Keys are the decimal sequence number zero-padded to `keySize` bytes; values are `valueSize`
 * bytes; one Put per key.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Etcd3 } from 'etcd3';

export interface LoadSpec {
  readonly endpoint: string;
  readonly keys: number;
  readonly keySize: number;
  readonly valueSize: number;
  readonly clients: number;
}

export interface LoadResult {
  readonly seconds: number;
  readonly rate: number;
  readonly cpuSeconds: number;
}

export interface Loader {
  readonly name: string;
  load(spec: LoadSpec): Promise<LoadResult>;
}

export function keyOf(n: number, keySize: number): string {
  return String(n).padStart(keySize, '0');
}

const GOPATH_SYSTEM = '/usr/share/gocode';

/** Builds the Go loader into `workDir`; undefined when Go or the client sources are missing. */
export async function buildGoLoader(repoRoot: string, workDir: string): Promise<Loader | undefined> {
  if (spawnSync('go', ['version']).status !== 0 || !existsSync(join(GOPATH_SYSTEM, 'src/go.etcd.io/etcd/clientv3'))) return undefined;
  const gopath = join(workDir, 'gopath');
  await mkdir(join(gopath, 'src'), { recursive: true });
  const pkg = join(gopath, 'src', 'scaleloader');
  if (!existsSync(pkg)) await symlink(resolve(repoRoot, 'bench/scale/loader'), pkg);
  const bin = join(workDir, 'scale-loader');
  const env = { ...process.env, GOPATH: `${gopath}:${GOPATH_SYSTEM}`, GO111MODULE: 'off', GOPROXY: 'off', GOFLAGS: '', GOCACHE: join(workDir, 'gocache') };
  const built = spawnSync('go', ['build', '-o', bin, 'scaleloader'], { env, encoding: 'utf8' });
  if (built.status !== 0) {
    process.stderr.write(`go loader did not build, using the Node loader:\n${built.stderr}\n`);
    return undefined;
  }
  return {
    name: 'Go clientv3 (bench/scale/loader)',
    load: (spec) => {
      const args = ['--endpoint', spec.endpoint, '--total', String(spec.keys), '--clients', String(spec.clients), '--conns', String(Math.min(spec.clients, 10)), '--key-size', String(spec.keySize), '--val-size', String(spec.valueSize)];
      const before = childCpu();
      const run = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (run.status !== 0) throw new Error(`loader failed (${run.status}): ${run.stderr}`);
      const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { seconds: number; rate: number };
      return Promise.resolve({ seconds: out.seconds, rate: out.rate, cpuSeconds: childCpu() - before });
    },
  };
}

/** CPU seconds used so far by this process's waited-for children (cutime + cstime). */
function childCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields after comm: state(0) … cutime(13) cstime(14), in clock ticks of 1/100 s
  return (Number(f[13]) + Number(f[14])) / 100;
}

/** The Node fallback: `clients` puts in flight through one etcd3 client. */
export const nodeLoader: Loader = {
  name: 'Node etcd3 client (fallback)',
  async load(spec) {
    const client = new Etcd3({ hosts: `http://${spec.endpoint}` });
    const value = Buffer.alloc(spec.valueSize, 0x61);
    let next = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const worker = async (): Promise<void> => {
      for (let n = next++; n < spec.keys; n = next++) await client.put(keyOf(n, spec.keySize)).value(value).exec();
    };
    try {
      await Promise.all(Array.from({ length: spec.clients }, worker));
    } finally {
      client.close();
    }
    const seconds = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(cpu0);
    return { seconds, rate: spec.keys / seconds, cpuSeconds: (c.user + c.system) / 1e6 };
  },
};
