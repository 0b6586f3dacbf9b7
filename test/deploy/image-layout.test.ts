/**
 * The images' final stages assembled on disk without Docker, then run: the files each final stage
 * copies from the build stage (this build's output), package.json, and the node_modules that
 * `npm ci --omit=dev` installs (the lockfile's packages not marked `dev`, hard-linked from this
 * checkout). Every binary on the image's PATH must load (all static imports resolve) and answer
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
}

const lock = JSON.parse(readRepoFile('package-lock.json')) as { packages: Record<string, LockPackage> };
const pkg = JSON.parse(readRepoFile('package.json')) as { devDependencies: Record<string, string> };

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

/** node_modules as `npm ci --omit=dev` lays it out for this lockfile. */
function productionModules(appDir: string): void {
  for (const [key, meta] of Object.entries(lock.packages)) {
    if (key === '' || meta.dev === true) continue;
    const src = join(REPO_ROOT, key);
    if (!existsSync(src)) continue; // an optional package for another platform
    linkTree(src, join(appDir, key));
  }
}

/** Assembles a Dockerfile's final stage under a temp dir; returns the app dir, the PATH binaries and the environment. */
function assemble(file: string, buildArgs: Record<string, string>): { app: string; bins: Map<string, string>; env: Record<string, string> } {
  const df = parseDockerfile(readRepoFile(file));
  const final = df.stages[df.stages.length - 1] as Stage;
  const build = df.stages.find((s) => s.name !== undefined && instructions(final, 'COPY').some((c) => c.flags.from === s.name));
  assert.ok(build !== undefined, 'the final stage copies from a build stage');
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
      if (c.flags.from !== undefined) {
        assert.ok(src.startsWith(`${buildDir}/dist/`), `${src} is build output`);
        cpSync(join(BUILD_ROOT, src.slice(`${buildDir}/dist/`.length)), target, { recursive: true });
      } else {
        cpSync(join(REPO_ROOT, src), target, { recursive: true });
      }
    }
  }
  productionModules(app);
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

void test('member image layout: kvstore and kvstorectl load with production dependencies only', () => {
  const { app, bins, env } = assemble('deploy/docker/member.Dockerfile', { KVSTORE_SERVER_VERSION: '3.4.0' });
  assertNoDevOnly(app);
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
