/**
 * The container engine for the image tests: podman, as scripts/images.mjs drives it (its own
 * scripts/images/engine.mjs, loaded at run time, so the runc/cgroupfs settings in
 * .images/containers.conf are the script's), and the images that script builds.
 *
 * `prepareImages()` decides whether the tests can run here and says why not: podman missing,
 * `podman info` failing, or a tiny `podman run` of the base image failing is a skip reason; a build
 * that fails while podman can run containers is an error. Images are built only when missing, by
 * `node scripts/images.mjs` (no second copy of the build logic; `KVSTORE_IMAGES_REBUILD=1`
 * rebuilds them anyway, e.g. after changing the sources).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_ROOT } from '../../support/paths.js';

/** The repository root (the build output sits in <root>/dist). */
export const REPO_ROOT = resolve(BUILD_ROOT, '..');

/** What scripts/images/engine.mjs returns (the part used here). */
export interface Engine {
  readonly name: string;
  /** Runs the engine; returns exit code and stdout + stderr, never throws. */
  capture(args: readonly string[], opts?: { readonly timeoutMs?: number }): { readonly code: number | null; readonly out: string };
  hasImage(ref: string): boolean;
  /** The stored name of a short reference (podman: docker.io/…). */
  qualify(ref: string): string;
  /** `run` flags that keep podman from asking systemd for HEALTHCHECK timers. */
  readonly healthRunFlags: readonly string[];
}

/** The images the tests run, fully qualified. */
export interface Images {
  readonly member34: string;
  readonly member35: string;
  readonly operator: string;
}

export type Prepared = { readonly kind: 'ready'; readonly engine: Engine; readonly images: Images; readonly built: string } | { readonly kind: 'skip'; readonly reason: string };

/** Bound of a full cold build (debootstrap + three images on 2 shared cores take ≈ 8 min). */
const BUILD_TIMEOUT_MS = 30 * 60_000;

function imageRefs(engine: Engine): Images {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  return {
    member34: engine.qualify('kvstore/kvstore:3.4.0'),
    member35: engine.qualify('kvstore/kvstore:3.5.0'),
    operator: engine.qualify(`kvstore/kvstore-operator:${pkg.version}`),
  };
}

/** The first base image present: the official one, else the local stand-in the script makes. */
function baseImage(engine: Engine): string | undefined {
  const major = /^ARG NODE_VERSION=(\d+)$/m.exec(readFileSync(join(REPO_ROOT, 'deploy/docker/member.Dockerfile'), 'utf8'))?.[1] ?? '26';
  return [`docker.io/library/node:${major}-slim`, `localhost/kvstore-node:${major}-slim`].find((r) => engine.hasImage(r));
}

/** undefined when a tiny container runs; otherwise why not. */
function cannotRun(engine: Engine, image: string): string | undefined {
  const r = engine.capture(['run', '--rm', '--network', 'host', ...engine.healthRunFlags, '--entrypoint', 'node', image, '-e', '0'], { timeoutMs: 120_000 });
  return r.code === 0 ? undefined : `podman cannot run a container here (podman run ${image}: exit ${r.code}: ${r.out.trim().split('\n').slice(-3).join(' | ')})`;
}

/** Runs `node scripts/images.mjs`; its output goes to .images/test-build.log. */
function buildImages(cacheDir: string): { readonly ok: boolean; readonly detail: string } {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts/images.mjs'), '--engine', 'podman'], {
    cwd: REPO_ROOT, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS, maxBuffer: 256 * 1024 * 1024,
  });
  const log = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  writeFileSync(join(cacheDir, 'test-build.log'), log);
  const seconds = ((Date.now() - t0) / 1000).toFixed(0);
  const tail = log.trim().split('\n').slice(-12).join('\n');
  return { ok: r.status === 0, detail: r.status === 0 ? `built by scripts/images.mjs in ${seconds} s:\n${tail}` : `scripts/images.mjs failed (exit ${r.status ?? r.signal}) after ${seconds} s:\n${tail}` };
}

/** Loads the script's engine module and checks that podman answers; a skip reason otherwise. */
async function loadEngine(cacheDir: string): Promise<Engine | string> {
  const version = spawnSync('podman', ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (version.status !== 0) return `podman is not installed (${version.error?.message ?? version.stderr.trim()})`;
  const mod = (await import(pathToFileURL(join(REPO_ROOT, 'scripts/images/engine.mjs')).href)) as {
    detectEngine(cacheDir: string, prefer: string): Engine | undefined;
  };
  const engine = mod.detectEngine(cacheDir, 'podman');
  if (engine === undefined) {
    const info = spawnSync('podman', ['info'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, CONTAINERS_CONF: join(cacheDir, 'containers.conf') } });
    return `podman info fails: ${`${info.stdout}${info.stderr}`.trim().split('\n').slice(-3).join(' | ')}`;
  }
  return engine;
}

/** Makes sure the images exist (building them with the script when not) and podman runs containers. */
export async function prepareImages(): Promise<Prepared> {
  const cacheDir = join(REPO_ROOT, '.images');
  mkdirSync(cacheDir, { recursive: true });
  const engine = await loadEngine(cacheDir);
  if (typeof engine === 'string') return { kind: 'skip', reason: engine };
  const images = imageRefs(engine);
  const present = Object.values(images).every((r) => engine.hasImage(r));
  const base = baseImage(engine);
  if (base !== undefined) {
    const why = cannotRun(engine, base);
    if (why !== undefined) return { kind: 'skip', reason: why };
  }
  let built = 'images already built (KVSTORE_IMAGES_REBUILD=1 rebuilds them)';
  if (!present || process.env.KVSTORE_IMAGES_REBUILD === '1') {
    const b = buildImages(cacheDir);
    if (!b.ok) {
      const now = baseImage(engine);
      const why = now === undefined ? undefined : cannotRun(engine, now);
      if (why !== undefined) return { kind: 'skip', reason: why };
      throw new Error(b.detail);
    }
    built = b.detail;
  }
  const missing = Object.values(images).filter((r) => !engine.hasImage(r));
  if (missing.length > 0) throw new Error(`scripts/images.mjs did not make ${missing.join(', ')}`);
  if (base === undefined) {
    const why = cannotRun(engine, images.member35);
    if (why !== undefined) return { kind: 'skip', reason: why };
  }
  return { kind: 'ready', engine, images, built: `${built}\n${imageSizes(cacheDir, images)}` };
}

/** One line per image: its reference and size, as podman reports it. */
function imageSizes(cacheDir: string, images: Images): string {
  return Object.values(images)
    .map((ref) => {
      const r = spawnSync('podman', ['image', 'inspect', '--format', '{{.Size}}', ref], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, CONTAINERS_CONF: join(cacheDir, 'containers.conf') } });
      const bytes = Number(r.stdout.trim());
      return `  ${ref}: ${r.status === 0 && bytes > 0 ? `${(bytes / 1e6).toFixed(0)} MB` : 'size unknown'}`;
    })
    .join('\n');
}
