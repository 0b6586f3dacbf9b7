/**
 * The images' final stages assembled on disk without Docker, then run: the files each final stage
 * copies from the build stage (this build's output), package.json, and the node_modules its `deps`
 * stage makes with `npm ci --omit=dev` (+ `npm pkg delete dependencies.X` and `npm prune` for the
 * member): the lockfile's packages reachable from the kept production dependencies, hard-linked
 * from this checkout. Every binary on the image's PATH must load (all static imports resolve) and answer
 * --version / --help there, with the image's environment, and no devDependency is present.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../support/processes.js';
import { execForm, instructions, keyValues, parseDockerfile, substitute, type Stage } from './support/dockerfile.js';
import { BUILD_ROOT, readRepoFile, REPO_ROOT } from './support/repo.js';

interface LockPackage {
  readonly dev?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

const lock = JSON.parse(readRepoFile('package-lock.json')) as { packages: Record<string, LockPackage> };
const pkg = JSON.parse(readRepoFile('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** Hard-links a package directory's files (copies when linking fails), leaving out its nested node_modules. */
function linkTree(src: string, dst: string): void {
  mkdirSync(dst, { recursive: true });
  for (const entry of readdirSync(src)) {
    if (entry === 'node_modules') continue;
    const from = join(src, entry);
    const to = join(dst, entry);
    const st = lstatSync(from);
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else if (st.isDirectory()) linkTree(from, to);
    else {
      try {
        linkSync(from, to);
      } catch (err) {
        if (!(err instanceof Error && 'code' in err && (err.code === 'EXDEV' || err.code === 'EPERM'))) throw err;
        copyFileSync(from, to);
      }
    }
  }
}

/** The lockfile key `name` resolves to from package `from` (Node's lookup: nested node_modules, then up). */
function resolveKey(from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const key = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (lock.packages[key] !== undefined) return key;
    if (dir === '') return undefined;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at < 0 ? '' : dir.slice(0, at);
  }
}

/**
 * node_modules as `npm ci --omit=dev` lays it out for this lockfile, less the `pruned` direct
 * dependencies and whatever only they needed (what `npm prune` removes): the non-dev packages
 * reachable from the kept production dependencies.
 */
function productionModules(appDir: string, pruned: readonly string[]): void {
  const keep = new Set<string>();
  const queue = Object.keys(pkg.dependencies).filter((n) => !pruned.includes(n)).map((n) => resolveKey('', n));
  while (queue.length > 0) {
    const key = queue.pop();
    if (key === undefined || keep.has(key)) continue;
    const meta = lock.packages[key];
    if (meta === undefined || meta.dev === true) continue;
    keep.add(key);
    for (const name of Object.keys({ ...meta.dependencies, ...meta.optionalDependencies, ...meta.peerDependencies })) queue.push(resolveKey(key, name));
  }
  for (const key of keep) {
    const src = join(REPO_ROOT, key);
    if (!existsSync(src)) continue; // an optional package for another platform
    linkTree(src, join(appDir, key));
  }
}

/** The direct dependencies a deps stage deletes from package.json before `npm prune`. */
function prunedBy(stage: Stage): string[] {
  return instructions(stage, 'RUN').flatMap((r) => [...r.args.matchAll(/\bdependencies\.(\S+)/g)].map((m) => m[1] ?? ''));
}

/** Assembles a Dockerfile's final stage under a temp dir; returns the app dir, the PATH binaries and the environment. */
function assemble(file: string, buildArgs: Record<string, string>): { app: string; bins: Map<string, string>; env: Record<string, string> } {
  const df = parseDockerfile(readRepoFile(file));
  const final = df.stages[df.stages.length - 1] as Stage;
  const build = df.stages.find((s) => s.name === 'build');
  assert.ok(build !== undefined, 'a build stage');
  const buildDir = instructions(build, 'WORKDIR').pop()?.args ?? '/';
  const appDir = instructions(final, 'WORKDIR').pop()?.args ?? '/';
  const root = makeTempDir('image-layout');
  const app = join(root, appDir);
  mkdirSync(app, { recursive: true });
  for (const c of instructions(final, 'COPY')) {
    const parts = execForm(c.args) ?? c.args.split(/\s+/);
    const dest = parts[parts.length - 1] ?? '';
    for (const src of parts.slice(0, -1)) {
      const target = join(dest.startsWith('/') ? root : app, dest.endsWith('/') || parts.length > 2 ? join(dest, src.split('/').pop() ?? '') : dest);
      const from = df.stages.find((s) => s.name === c.flags.from);
      if (from !== undefined && from !== build) {
        // The deps stage: its package.json (the repository's, less deleted entries) and node_modules.
        const depsDir: string = instructions(from, 'WORKDIR').pop()?.args ?? '/';
        if (src === `${depsDir}/package.json`) cpSync(join(REPO_ROOT, 'package.json'), target);
        else if (src === `${depsDir}/node_modules`) productionModules(app, prunedBy(from));
        else assert.fail(`${src}: unexpected copy from ${c.flags.from ?? ''}`);
      } else if (c.flags.from !== undefined) {
        assert.ok(src.startsWith(`${buildDir}/dist/`), `${src} is build output`);
        cpSync(join(BUILD_ROOT, src.slice(`${buildDir}/dist/`.length)), target, { recursive: true });
      } else {
        cpSync(join(REPO_ROOT, src), target, { recursive: true });
      }
    }
  }
  const bins = new Map<string, string>();
  for (const r of instructions(final, 'RUN')) {
    for (const m of r.args.matchAll(/ln -s (\S+) \/usr\/local\/bin\/(\S+)/g)) bins.set(m[2] ?? '', join(root, m[1] ?? ''));
  }
  const vars = new Map<string, string | undefined>(Object.entries(buildArgs));
  const env: Record<string, string> = {};
  for (const e of instructions(final, 'ENV')) for (const [k, v] of keyValues(e.args)) env[k] = substitute(v ?? '', vars);
  return { app, bins, env };
}

/** Dev-only packages (direct devDependencies the lockfile marks `dev`, e.g. typescript) are absent. */
function assertNoDevOnly(app: string): void {
  const devOnly = Object.keys(pkg.devDependencies).filter((name) => lock.packages[`node_modules/${name}`]?.dev === true);
  assert.ok(devOnly.includes('typescript'));
  for (const name of devOnly) assert.ok(!existsSync(join(app, 'node_modules', name)), `${name} (dev) is not installed`);
}

function run(main: string, args: readonly string[], env: Record<string, string>, cwd: string): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [main, ...args], { cwd, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env } });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

void test('member image layout: kvstore and kvstorectl load with production dependencies only, without the operator\'s', () => {
  const { app, bins, env } = assemble('deploy/docker/member.Dockerfile', { KVSTORE_SERVER_VERSION: '3.4.0' });
  assertNoDevOnly(app);
  for (const name of ['@kubernetes/client-node', '@aws-sdk/client-s3', '@smithy/core', 'typebox']) assert.ok(!existsSync(join(app, 'node_modules', name)), `${name} is pruned`);
  for (const name of ['@grpc/grpc-js', 'classic-level', 'koa', 'pino']) assert.ok(existsSync(join(app, 'node_modules', name)), `${name} is kept`);
  assert.deepEqual([...bins.keys()].sort(), ['kvstore', 'kvstorectl']);
  const server = run(bins.get('kvstore') ?? '', ['--version'], { ...env, KVSTORE_DATA_DIR: join(app, 'data') }, app);
  assert.equal(server.code, 0, server.out);
  assert.match(server.out, /3\.4\.0/, 'the version built in');
  const ctl = run(bins.get('kvstorectl') ?? '', ['--help'], env, app);
  assert.equal(ctl.code, 0, ctl.out);
});

void test('operator image layout: kvstore-operator (and the member binaries) load with production dependencies only', () => {
  const { app, bins, env } = assemble('deploy/docker/operator.Dockerfile', {});
  assertNoDevOnly(app);
  assert.deepEqual([...bins.keys()].sort(), ['kvstore', 'kvstore-operator', 'kvstorectl']);
  const operator = run(bins.get('kvstore-operator') ?? '', ['--help'], env, app);
  assert.equal(operator.code, 0, operator.out);
  assert.match(operator.out, /kvstore-operator/);
  const server = run(bins.get('kvstore') ?? '', ['--version'], env, app);
  assert.equal(server.code, 0, server.out);
});
