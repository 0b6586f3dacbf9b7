/**
 * Builds the Go load generator (bench/go/kvload) on first use, into `<outDir>/bin/kvload`, and
 * again whenever a .go source is newer than the binary. The build is offline, in GOPATH mode,
 * against the clientv3 that Debian's golang-etcd-server-dev installs under /usr/share/gocode;
 * the Go build cache lives in `<outDir>/go-cache`. The binary is written under a temporary name
 * and renamed, so concurrent builds never run a half-written file.
 *
 * Fails with a message naming the missing apt package when Go or the clientv3 sources are absent.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** GOPATH holding go.etcd.io/etcd/clientv3 and its dependencies (Debian's golang-*-dev packages). */
export const SYSTEM_GOPATH = '/usr/share/gocode';
const CLIENTV3 = join(SYSTEM_GOPATH, 'src', 'go.etcd.io', 'etcd', 'clientv3');
const BUILD_TIMEOUT_MS = 5 * 60_000;

/** The kvload sources: bench/go/kvload in the source tree that holds this (compiled) file. */
export function kvloadSourceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'bench', 'go', 'kvload');
    if (existsSync(join(candidate, 'main.go'))) return candidate;
    dir = resolve(dir, '..');
  }
  throw new Error(`bench/go/kvload/main.go not found above ${fileURLToPath(import.meta.url)}`);
}

function newestSource(dir: string): number {
  return Math.max(...readdirSync(dir).filter((f) => f.endsWith('.go')).map((f) => statSync(join(dir, f)).mtimeMs));
}

function runGo(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn('go', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    proc.stdout.on('data', (b: Buffer) => (output += b.toString()));
    proc.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const timer = setTimeout(() => proc.kill('SIGKILL'), BUILD_TIMEOUT_MS);
    proc.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        err.code === 'ENOENT'
          ? new Error('building the load generator needs Go: `go` is not on PATH (apt-get install golang-go golang-etcd-server-dev)')
          : new Error('could not run go', { cause: err }),
      );
    });
    proc.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else reject(new Error(`go ${args.join(' ')} failed (${signal ?? `code ${code}`}):\n${output.trim()}`));
    });
  });
}

/**
 * Path of an up-to-date kvload binary under `outDir`, building it first when needed.
 * `log` hears about a build (it takes a few seconds, more with a cold cache).
 */
export async function ensureKvload(outDir: string, log: (line: string) => void = () => {}): Promise<string> {
  const src = kvloadSourceDir();
  const binary = join(resolve(outDir), 'bin', 'kvload');
  if (existsSync(binary) && statSync(binary).mtimeMs >= newestSource(src)) return binary;
  if (!existsSync(CLIENTV3)) {
    throw new Error(`building the load generator needs the Go clientv3 sources in ${CLIENTV3} (apt-get install golang-etcd-server-dev)`);
  }
  mkdirSync(dirname(binary), { recursive: true });
  const tmp = `${binary}.tmp-${process.pid}`;
  log(`building the load generator ${binary} from ${src}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GO111MODULE: 'off',
    GOPATH: SYSTEM_GOPATH,
    GOPROXY: 'off',
    GOFLAGS: '',
    CGO_ENABLED: '0',
    GOCACHE: join(resolve(outDir), 'go-cache'),
  };
  try {
    await runGo(['build', '-o', tmp, '.'], src, env);
    renameSync(tmp, binary);
  } finally {
    rmSync(tmp, { force: true });
  }
  return binary;
}
