/**
 * Builds a Go program of the project (the bench's load generator, the tests' Go clients, etcd's
 * own e2e suite) offline, in GOPATH mode, against the Go sources Debian's golang-*-dev packages
 * install under /usr/share/gocode: once, and again whenever a .go source is newer than the
 * binary. The binary is written under a temporary name and renamed, so concurrent builds never
 * run a half-written file; the Go build cache is the caller's (`cacheDir`).
 *
 * Fails with a message naming the apt packages when Go or the clientv3 sources are absent.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** GOPATH holding go.etcd.io/etcd (clientv3, the e2e suite) and their dependencies. */
export const SYSTEM_GOPATH = '/usr/share/gocode';
const CLIENTV3 = join(SYSTEM_GOPATH, 'src', 'go.etcd.io', 'etcd', 'clientv3');
const BUILD_TIMEOUT_MS = 5 * 60_000;
const APT = 'apt-get install golang-go golang-etcd-server-dev';

export interface GoBuild {
  /** Where the binary goes. */
  readonly binary: string;
  /** The folder whose .go files decide whether the binary is stale. */
  readonly sourceDir: string;
  /** `go` arguments, the output path excluded: e.g. ['build', '.'] or ['test', '-c', pkg]; `-o <tmp>` is inserted after the first. */
  readonly args: readonly string[];
  readonly cwd: string;
  readonly cacheDir: string;
  /** CGO off (static binaries) unless false. */
  readonly noCgo?: boolean;
  readonly log?: (line: string) => void;
}

/** The binary, built first when it is missing or older than its sources. */
export async function ensureGoBinary(b: GoBuild): Promise<string> {
  if (existsSync(b.binary) && statSync(b.binary).mtimeMs >= newestSource(b.sourceDir)) return b.binary;
  if (!existsSync(CLIENTV3)) throw new Error(`building ${b.sourceDir} needs the Go clientv3 sources in ${CLIENTV3} (${APT})`);
  mkdirSync(dirname(b.binary), { recursive: true });
  const tmp = `${b.binary}.tmp-${process.pid}`;
  b.log?.(`building ${b.binary} from ${b.sourceDir}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GO111MODULE: 'off',
    GOPATH: SYSTEM_GOPATH,
    GOPROXY: 'off',
    GOFLAGS: '',
    GOCACHE: b.cacheDir,
    ...(b.noCgo === false ? {} : { CGO_ENABLED: '0' }),
  };
  const [verb, ...rest] = b.args;
  try {
    await runGo([verb!, '-o', tmp, ...rest], b.cwd, env);
    renameSync(tmp, b.binary);
  } finally {
    rmSync(tmp, { force: true });
  }
  return b.binary;
}

function newestSource(dir: string): number {
  return Math.max(...readdirSync(dir).filter((f) => f.endsWith('.go')).map((f) => statSync(join(dir, f)).mtimeMs));
}

function runGo(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolveBuild, reject) => {
    const proc = spawn('go', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    proc.stdout.on('data', (b: Buffer) => (output += b.toString()));
    proc.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const timer = setTimeout(() => proc.kill('SIGKILL'), BUILD_TIMEOUT_MS);
    proc.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(err.code === 'ENOENT' ? new Error(`building needs Go: \`go\` is not on PATH (${APT})`) : new Error('could not run go', { cause: err }));
    });
    proc.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolveBuild();
      else reject(new Error(`go ${args.join(' ')} failed (${signal ?? `code ${code}`}):\n${output.trim()}`));
    });
  });
}
