/**
 * The container images, checked statically (no Docker engine needed): deploy/docker/member.Dockerfile
 * and operator.Dockerfile are multi-stage builds on a current Node LTS slim base (BASE_IMAGE, which
 * scripts/images.mjs may point at a locally made one), npm gets its settings as build secrets only,
 * the final stage needs no network, runs as a non-root uid, gets production dependencies only from a
 * `deps` stage (the member's without the packages it never imports), copies every file its entry point
 * loads from the build stage (checked against this build's import closure), and — for the member —
 * turns the KVSTORE_SERVER_VERSION build argument into the environment and keeps KVSTORE_DATA_DIR
 * on a volume. The build context (.dockerignore) keeps out node_modules, builds and VCS data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveServerVersion } from '../../server/version/version.js';
import { execForm, instructions, keyValues, parseDockerfile, substitute, type Dockerfile, type Stage } from './support/dockerfile.js';
import { isIgnored, parseDockerignore } from './support/dockerignore.js';
import { importClosure } from './support/import-closure.js';
import { BUILD_ROOT, readRepoFile, repoPath } from './support/repo.js';

interface ImageCase {
  readonly file: string;
  /** Command name the ENTRYPOINT runs, and the compiled file it links to (relative to dist/). */
  readonly entrypoint: string;
  readonly binaries: Readonly<Record<string, string>>;
  readonly ports: readonly string[];
  readonly volume: string;
  /** Production dependencies the image prunes (`npm pkg delete` + `npm prune`): none may be imported. */
  readonly pruned: readonly string[];
  /** What the HEALTHCHECK fetches by default: the chart's probe. */
  readonly health: string;
}

const IMAGES: readonly ImageCase[] = [
  {
    file: 'deploy/docker/member.Dockerfile',
    entrypoint: 'kvstore',
    binaries: { kvstore: 'server/main.js', kvstorectl: 'ctl/main.js' },
    ports: ['2379', '2380'],
    volume: '/var/lib/kvstore',
    pruned: ['@kubernetes/client-node', '@aws-sdk/client-s3', 'typebox', 'level'],
    health: 'http://127.0.0.1:2379/health',
  },
  {
    file: 'deploy/docker/operator.Dockerfile',
    entrypoint: 'kvstore-operator',
    binaries: { 'kvstore-operator': 'operator/main.js', kvstore: 'server/main.js', kvstorectl: 'ctl/main.js' },
    ports: ['8080'],
    volume: '/var/lib/kvstore-operator/snapshots',
    pruned: [],
    health: 'http://127.0.0.1:8080/healthz',
  },
];

/** Node major versions that are LTS lines (even majors up to 26; every major from 27 on). */
const MIN_NODE_MAJOR = 24;

const pkg = JSON.parse(readRepoFile('package.json')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function load(file: string): Dockerfile {
  return parseDockerfile(readRepoFile(file));
}

function globalArgDefaults(df: Dockerfile): Map<string, string | undefined> {
  const vars = new Map<string, string | undefined>();
  // Defaults may use earlier ARGs (BASE_IMAGE=node:${NODE_VERSION}-slim).
  for (const a of df.globalArgs) for (const [k, v] of keyValues(a.args)) vars.set(k, v === undefined ? v : substitute(v, vars));
  return vars;
}

function finalStage(df: Dockerfile): Stage {
  const last = df.stages[df.stages.length - 1];
  assert.ok(last !== undefined, 'no FROM');
  return last;
}

/** The stage named `name` (for COPY --from). */
function stageNamed(df: Dockerfile, name: string): Stage {
  const s = df.stages.find((x) => x.name === name);
  assert.ok(s !== undefined, `no stage named ${name}`);
  return s;
}

/** COPY sources and destination of a COPY instruction (shell or exec form). */
function copyParts(args: string): { sources: string[]; dest: string } {
  const parts = execForm(args) ?? args.split(/\s+/);
  return { sources: parts.slice(0, -1), dest: parts[parts.length - 1] ?? '' };
}

/** The in-image paths a final stage gets from the build stage, mapped to build-output paths (`/src/dist/server` → `server`). */
function copiedBuildDirs(df: Dockerfile, stage: Stage): string[] {
  const dirs: string[] = [];
  const build = df.stages[0] as Stage;
  for (const c of instructions(stage, 'COPY').filter((i) => i.flags.from !== undefined)) {
    const from = stageNamed(df, c.flags.from ?? '');
    if (from !== build) continue; // the deps stage: package.json and node_modules (checked on their own)
    const workdir = instructions(from, 'WORKDIR').map((w) => w.args).pop() ?? '/';
    for (const src of copyParts(c.args).sources) {
      const prefix = `${workdir.replace(/\/$/, '')}/dist/`;
      assert.ok(src.startsWith(prefix), `${src}: the final stage copies only build output (${prefix}…) from ${from.name ?? ''}`);
      dirs.push(src.slice(prefix.length).replace(/\/$/, ''));
    }
  }
  return dirs;
}

for (const image of IMAGES) {
  const df = load(image.file);
  const vars = globalArgDefaults(df);
  const final = finalStage(df);

  void test(`${image.file}: multi-stage, build then runtime on the same Node LTS slim base`, () => {
    assert.ok(df.stages.length >= 2, 'at least a build stage and a runtime stage');
    const bases = df.stages.map((s) => substitute(s.from, vars));
    for (const base of bases) {
      const m = /^node:(\d+)-slim$/.exec(base);
      assert.ok(m !== null, `${base}: expected node:<major>-slim`);
      assert.ok(Number(m[1]) >= MIN_NODE_MAJOR && (Number(m[1]) % 2 === 0 || Number(m[1]) >= 27), `${base}: not a current LTS major`);
    }
    assert.equal(new Set(bases).size, 1, 'build and runtime use the same Node (native modules are built for it)');
    const build = df.stages[0] as Stage;
    const runs = instructions(build, 'RUN').map((r) => r.args);
    assert.ok(runs.some((r) => /\bnpm ci\b/.test(r) && !/--omit=dev/.test(r)), 'the build stage installs all dependencies (npm ci)');
    assert.ok(runs.some((r) => /\bnpm run build\b/.test(r)), 'the build stage runs npm run build');
  });

  void test(`${image.file}: the build needs no protoc (generated code is committed)`, () => {
    assert.match(pkg.scripts.build ?? '', /^tsc\b/);
    assert.ok(existsSync(repoPath('proto/gen')), 'proto/gen is committed');
    const build = df.stages[0] as Stage;
    for (const r of instructions(build, 'RUN')) assert.doesNotMatch(r.args, /protoc|proto:gen|apt-get/);
  });

  void test(`${image.file}: the final stage runs as a non-root numeric user`, () => {
    const users = instructions(final, 'USER');
    assert.ok(users.length > 0, 'USER in the final stage');
    const user = (users[users.length - 1] as { args: string }).args;
    const m = /^(\d+)(?::(\d+))?$/.exec(user);
    assert.ok(m !== null, `USER ${user}: numeric uid (runAsNonRoot can only verify a numeric user)`);
    assert.notEqual(Number(m[1]), 0, 'not root');
    const userAt = final.instructions.map((i) => i.keyword).lastIndexOf('USER');
    assert.ok(final.instructions.slice(userAt).every((i) => i.keyword !== 'RUN'), 'USER comes after the last RUN (the image user cannot write outside its volume)');
  });

  void test(`${image.file}: npm's settings come in as build secrets, never as a layer`, () => {
    for (const stage of df.stages) {
      for (const r of instructions(stage, 'RUN').filter((x) => /\bnpm ci\b/.test(x.args))) {
        assert.match(r.flags.mount ?? '', /type=secret,id=npmrc\b/, `${stage.name ?? ''}: npm ci mounts the npmrc secret`);
        assert.match(r.args, /NPM_CONFIG_USERCONFIG=\/run\/secrets\/npmrc\b/, 'npm reads it as its user config');
      }
      for (const c of [...instructions(stage, 'COPY'), ...instructions(stage, 'ADD')]) assert.doesNotMatch(c.args, /npmrc|\.pem|\.crt/, 'no npm config or CA copied in');
      for (const a of [...instructions(stage, 'ARG'), ...instructions(stage, 'ENV')]) assert.doesNotMatch(a.args, /NPM_CONFIG|npm_config|NODE_EXTRA_CA/i, 'no npm config in ARG/ENV');
    }
  });

  void test(`${image.file}: the final stage needs no network and gets production dependencies only`, () => {
    const runs = instructions(final, 'RUN').map((r) => r.args);
    for (const r of runs) assert.doesNotMatch(r, /\bnpm\b|\bapt-get\b|\bcurl\b|\bwget\b/, 'no download in the runtime stage');
    const modules = instructions(final, 'COPY').filter((c) => /node_modules/.test(c.args));
    assert.equal(modules.length, 1, 'node_modules copied once');
    const deps = stageNamed(df, modules[0]?.flags.from ?? '');
    assert.notEqual(deps, df.stages[0], 'not from the build stage (it has dev dependencies)');
    const installs = instructions(deps, 'RUN').map((r) => r.args).filter((r) => /\bnpm (ci|install|i)\b/.test(r));
    assert.equal(installs.length, 1);
    assert.match(installs[0] ?? '', /\bnpm ci\b.*--omit=dev\b/, 'lockfile install without devDependencies');
    for (const name of image.pruned) assert.ok(installs[0]?.includes(`dependencies.${name}`), `${name} pruned`);
    if (image.pruned.length > 0) assert.match(installs[0] ?? '', /npm prune --omit=dev --offline\b/, 'pruned from the lockfile, offline');
    assert.ok(keyValues(instructions(final, 'ENV').map((e) => e.args).join(' ')).get('NODE_ENV') === 'production');
  });

  void test(`${image.file}: HEALTHCHECK fetches what the chart's probe does`, () => {
    const hc = instructions(final, 'HEALTHCHECK');
    assert.equal(hc.length, 1);
    assert.ok(hc[0]?.args.includes(`'${image.health}'`), `${hc[0]?.args ?? ''}: default ${image.health}`);
    assert.match(hc[0]?.args ?? '', /CMD \["node", "-e"/, 'exec form with the image\'s node (no curl in a slim image)');
  });

  void test(`${image.file}: the entry point and the linked binaries are files the final stage copies`, () => {
    const ep = instructions(final, 'ENTRYPOINT');
    assert.equal(ep.length, 1);
    assert.deepEqual(execForm((ep[0] as { args: string }).args), [image.entrypoint], 'exec form, the binary');
    const runs = instructions(final, 'RUN').map((r) => r.args).join('\n');
    const workdir = instructions(final, 'WORKDIR').map((w) => w.args).pop() ?? '/';
    const dirs = copiedBuildDirs(df, final);
    for (const [bin, target] of Object.entries(image.binaries)) {
      assert.ok(runs.includes(`ln -s ${workdir}/dist/${target} /usr/local/bin/${bin}`), `${bin} → ${target} on PATH`);
      assert.ok(runs.includes(`dist/${target}`) && /chmod 0?755/.test(runs), `${target} is executable`);
      assert.ok(dirs.includes(target.split('/')[0] ?? ''), `${target} comes from the build stage`);
    }
  });

  void test(`${image.file}: the copied build output holds everything the entry points load, and production dependencies cover their packages`, (t) => {
    const dirs = copiedBuildDirs(df, final);
    const build = df.stages[0] as Stage;
    const sourceDirs = instructions(build, 'COPY').flatMap((c) => copyParts(c.args).sources);
    for (const d of dirs) assert.ok(sourceDirs.includes(d), `dist/${d} is built from ${d}/, which the build stage copies`);
    for (const target of Object.values(image.binaries)) {
      const entry = join(BUILD_ROOT, target);
      if (!existsSync(entry) && !existsSync(repoPath(target.replace(/\.js$/, '.ts')))) {
        t.diagnostic(`${target}: not in the sources yet; checked once it exists`);
        continue;
      }
      assert.ok(existsSync(entry), `${entry} is built`);
      const closure = importClosure(entry);
      assert.deepEqual(closure.missing, [], 'every relative import resolves');
      const outside = [...closure.files].map((f) => f.slice(BUILD_ROOT.length + 1)).filter((f) => !dirs.some((d) => f.startsWith(`${d}/`)));
      assert.deepEqual(outside, [], `${target} loads files the image does not copy`);
      const notProd = [...closure.packages].filter((p) => pkg.dependencies[p] === undefined || image.pruned.includes(p));
      assert.deepEqual(notProd, [], `${target} imports packages that are not production dependencies (or that the image prunes)`);
    }
  });

  void test(`${image.file}: ports and the data volume`, () => {
    const exposed = instructions(final, 'EXPOSE').flatMap((e) => e.args.split(/\s+/));
    assert.deepEqual([...exposed].sort(), [...image.ports].sort());
    const volumes = instructions(final, 'VOLUME').flatMap((v) => execForm(v.args) ?? v.args.split(/\s+/));
    assert.deepEqual(volumes, [image.volume]);
    const runs = instructions(final, 'RUN').map((r) => r.args).join('\n');
    const uid = (instructions(final, 'USER').pop()?.args ?? '').split(':')[0] ?? '';
    assert.match(runs, new RegExp(`chown (-R )?${uid}:\\d+ ${image.volume.split('/').slice(0, 4).join('/')}`), 'the volume is writable by the image user');
  });
}

void test('member image: the KVSTORE_SERVER_VERSION build argument becomes the environment; KVSTORE_DATA_DIR is the volume', () => {
  const df = load('deploy/docker/member.Dockerfile');
  const final = finalStage(df);
  const args = new Map<string, string | undefined>();
  for (const a of instructions(final, 'ARG')) for (const [k, v] of keyValues(a.args)) args.set(k, v);
  const version = args.get('KVSTORE_SERVER_VERSION');
  assert.ok(version !== undefined, 'ARG KVSTORE_SERVER_VERSION=<default> declared in the final stage (an ARG before FROM is not visible there)');
  const accepted = resolveServerVersion({ KVSTORE_SERVER_VERSION: version });
  assert.ok(accepted.ok, `the default ${version} is a version the server accepts`);
  for (const line of ['3.2.0', '3.3.0', '3.4.0', '3.5.0']) assert.ok(resolveServerVersion({ KVSTORE_SERVER_VERSION: line }).ok);
  const env = keyValues(instructions(final, 'ENV').map((e) => e.args).join(' '));
  assert.equal(env.get('KVSTORE_SERVER_VERSION'), '${KVSTORE_SERVER_VERSION}');
  const argAt = final.instructions.findIndex((i) => i.keyword === 'ARG' && i.args.startsWith('KVSTORE_SERVER_VERSION'));
  const envAt = final.instructions.findIndex((i) => i.keyword === 'ENV' && i.args.includes('KVSTORE_SERVER_VERSION='));
  assert.ok(argAt >= 0 && argAt < envAt, 'ARG before the ENV that uses it');
  const dataDir = env.get('KVSTORE_DATA_DIR');
  assert.equal(dataDir, '/var/lib/kvstore');
  const volumes = instructions(final, 'VOLUME').flatMap((v) => execForm(v.args) ?? []);
  assert.ok(volumes.includes(dataDir), 'KVSTORE_DATA_DIR is a VOLUME');
});

void test('operator image: `run` by default, the snapshot directory the Deployment mounts', () => {
  const final = finalStage(load('deploy/docker/operator.Dockerfile'));
  assert.deepEqual(execForm(instructions(final, 'CMD').pop()?.args ?? ''), ['run']);
  const deployment = readRepoFile('deploy/operator/deployment.yaml');
  assert.ok(deployment.includes('/var/lib/kvstore-operator/snapshots'));
});

void test('.dockerignore keeps dependencies, builds, VCS data and data dirs out of the context, and every COPY source in', () => {
  const rules = parseDockerignore(readRepoFile('.dockerignore'));
  for (const p of ['node_modules', 'node_modules/koa/index.js', 'dist/server/main.js', 'dist-ship/x.js', '.git/HEAD', 'default.kvstore/wal', 'server/x.kvstore/db', 'test/unit/a.test.ts']) {
    assert.ok(isIgnored(p, rules), `${p} is excluded`);
  }
  for (const image of IMAGES) {
    for (const stage of load(image.file).stages) {
      for (const c of instructions(stage, 'COPY').filter((i) => i.flags.from === undefined)) {
        for (const src of copyParts(c.args).sources) {
          assert.ok(existsSync(repoPath(src)), `${image.file}: ${src} exists`);
          assert.ok(!isIgnored(src, rules), `${image.file}: ${src} is in the build context`);
        }
      }
    }
  }
  assert.ok(readFileSync(repoPath('package-lock.json'), 'utf8').length > 0, 'the lockfile npm ci needs');
});
