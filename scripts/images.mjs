// `npm run images [-- options]`: builds the member and operator images from
// deploy/docker/{member,operator}.Dockerfile as shipped, with podman (runc) or docker, and tags them
// as the chart and manifests reference them:
//   kvstore/kvstore:<version>            one per server version the chart values and deploy/examples run
//   kvstore/kvstore-operator:<appVersion> charts/kvstore-operator/Chart.yaml (= package.json version,
//                                         = deploy/operator/deployment.yaml's tag; checked)
// Base: the official node:<NODE_VERSION>-slim when a registry answers, else (or with --local-base)
// one made here without a registry (scripts/images/local-base.mjs; cached under .images/).
// npm's registry and CA bundle go to the builds as build secrets (--secret id=npmrc / id=npm_ca).
// Options:
//   --local-base           do not try a registry for the base
//   --engine podman|docker  (default: podman if it answers, else docker)
//   --member-versions 3.4.0,3.5.0   (default: every version the chart and examples use)
//   --smoke                 after building, run the containers (scripts/images/smoke.mjs)
//   --no-build              with --smoke: check the images already built
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { detectEngine } from './images/engine.mjs';
import { localNodeBase } from './images/local-base.mjs';
import { smoke } from './images/smoke.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, '.images');
const { values: opts } = parseArgs({
  options: {
    'local-base': { type: 'boolean', default: false },
    engine: { type: 'string' },
    'member-versions': { type: 'string' },
    smoke: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
});

const readYaml = (rel) => parse(readFileSync(join(root, rel), 'utf8'));

/** The image names the chart and the manifests reference; fails when they disagree with each other. */
function imageTargets() {
  const chart = readYaml('charts/kvstore-operator/Chart.yaml');
  const values = readYaml('charts/kvstore-operator/values.yaml');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const operatorRef = `${values.image.repository}:${values.image.tag || chart.appVersion}`;
  const deployed = /image:\s*(\S+)/.exec(readFileSync(join(root, 'deploy/operator/deployment.yaml'), 'utf8'))?.[1];
  if (deployed !== operatorRef) throw new Error(`deploy/operator/deployment.yaml runs ${deployed}, the chart ${operatorRef}`);
  if (chart.appVersion !== pkg.version) throw new Error(`Chart appVersion ${chart.appVersion} ≠ package.json version ${pkg.version}`);
  const memberRepos = new Set([values.cluster.image]);
  const versions = new Set([values.cluster.version]);
  for (const f of readdirSync(join(root, 'deploy/examples')).filter((x) => x.endsWith('.yaml') && x !== 'kustomization.yaml')) {
    const spec = readYaml(`deploy/examples/${f}`)?.spec ?? {};
    if (spec.version !== undefined) versions.add(spec.version);
    if (spec.image !== undefined) memberRepos.add(spec.image);
  }
  if (memberRepos.size !== 1) throw new Error(`member image repositories disagree: ${[...memberRepos].join(', ')}`);
  const memberVersions = opts['member-versions']?.split(',') ?? [...versions].sort();
  return { operator: operatorRef, members: memberVersions.map((v) => ({ version: v, ref: `${[...memberRepos][0]}:${v}` })) };
}

/** NODE_VERSION's default in the member Dockerfile (both Dockerfiles use the same). */
function nodeMajor() {
  const m = /^ARG NODE_VERSION=(\d+)$/m.exec(readFileSync(join(root, 'deploy/docker/member.Dockerfile'), 'utf8'));
  if (m === null) throw new Error('member.Dockerfile: no ARG NODE_VERSION=<major>');
  return m[1];
}

function npmConfig(key) {
  const v = spawnSync('npm', ['config', 'get', key], { encoding: 'utf8' }).stdout.trim();
  return v === '' || v === 'null' || v === 'undefined' ? undefined : v;
}

/** The npmrc (registry, proxies, CA) handed to the builds as secrets; no tokens are copied. */
function npmSecrets() {
  const lines = [`registry=${npmConfig('registry') ?? 'https://registry.npmjs.org/'}`];
  for (const key of ['proxy', 'https-proxy', 'noproxy', 'strict-ssl']) {
    const v = npmConfig(key);
    if (v !== undefined) lines.push(`${key}=${v}`);
  }
  const ca = [npmConfig('cafile'), process.env.NODE_EXTRA_CA_CERTS, process.env.SSL_CERT_FILE].find((f) => f !== undefined && existsSync(f));
  if (ca !== undefined) lines.push('cafile=/run/secrets/npm_ca');
  const npmrc = join(cacheDir, 'npmrc');
  writeFileSync(npmrc, `${lines.join('\n')}\n`, { mode: 0o600 });
  return ['--secret', `id=npmrc,src=${npmrc}`, ...(ca === undefined ? [] : ['--secret', `id=npm_ca,src=${ca}`])];
}

/** The base to build on: the official image when it can be pulled, else the local one. */
function pickBase(engine) {
  const official = `node:${nodeMajor()}-slim`;
  if (!opts['local-base']) {
    const qualified = `docker.io/library/${official}`;
    if (engine.hasImage(qualified)) return { ref: qualified, local: false };
    const pull = engine.capture(['pull', qualified], { timeoutMs: 60_000 });
    if (pull.code === 0) return { ref: qualified, local: false };
    console.log(`images: cannot pull ${qualified} (${pull.out.trim().split('\n').pop()}); making a local base`);
  }
  return { ref: localNodeBase(engine, { cacheDir, root, nodeMajor: nodeMajor() }), local: true };
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

function build(engine, base, secrets, file, refs, buildArgs = []) {
  const t0 = Date.now();
  const tags = refs.flatMap((r) => ['-t', engine.qualify(r)]);
  engine.run(['build', ...engine.buildFlags(base.local), '--network', 'host', ...secrets,
    '--build-arg', `BASE_IMAGE=${base.ref}`, ...buildArgs, '-f', join(root, file), ...tags, root]);
  return (Date.now() - t0) / 1000;
}

async function main() {
  mkdirSync(cacheDir, { recursive: true });
  const engine = detectEngine(cacheDir, opts.engine);
  if (engine === undefined) throw new Error('no container engine answers: install podman (+ runc) or start a docker daemon');
  const targets = imageTargets();
  const report = [];
  if (!opts['no-build']) {
    const t0 = Date.now();
    const base = pickBase(engine);
    const baseSeconds = (Date.now() - t0) / 1000;
    console.log(`images: ${engine.name}, base ${base.ref} (${baseSeconds.toFixed(0)} s)`);
    const secrets = npmSecrets();
    for (const m of targets.members) {
      const s = build(engine, base, secrets, 'deploy/docker/member.Dockerfile', [m.ref], ['--build-arg', `KVSTORE_SERVER_VERSION=${m.version}`]);
      report.push({ ref: m.ref, seconds: s });
    }
    report.push({ ref: targets.operator, seconds: build(engine, base, secrets, 'deploy/docker/operator.Dockerfile', [targets.operator]) });
    report.unshift({ ref: base.ref, seconds: baseSeconds });
  } else {
    for (const ref of [...targets.members.map((m) => m.ref), targets.operator]) report.push({ ref, seconds: 0 });
  }
  console.log('\nimage                                   build    size');
  for (const r of report) {
    const size = engine.imageSize(engine.qualify(r.ref)) || engine.imageSize(r.ref);
    console.log(`${engine.qualify(r.ref).padEnd(40)} ${`${r.seconds.toFixed(0)} s`.padStart(5)}  ${mb(size).padStart(7)}`);
  }
  if (opts.smoke) {
    const member = targets.members[targets.members.length - 1];
    await smoke(engine, { member: engine.qualify(member.ref), operator: engine.qualify(targets.operator), root });
  }
}

main().catch((err) => {
  console.error(`images: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
