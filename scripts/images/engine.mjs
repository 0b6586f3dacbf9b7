// The container engine scripts/images.mjs drives: podman (with runc, cgroupfs and a file event
// log, written to .images/containers.conf so nothing under /etc needs editing) or a docker whose
// daemon answers. `run` and `capture` take argv arrays, never a shell string.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * podman settings that work in a container without systemd or full rlimits: crun fails here
 * (setrlimit RLIMIT_NOFILE, "cgroups in hybrid mode"), and ulimits above these fail with
 * "error setting rlimit ... operation not permitted".
 */
const CONTAINERS_CONF = `# written by scripts/images.mjs (CONTAINERS_CONF for every podman call it makes)
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
`;

function answers(cmd, args, env) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env, timeout: 30_000 });
  return r.status === 0;
}

/**
 * Picks the engine: `prefer` ('podman' | 'docker') if given, else podman when it answers, else
 * docker when its daemon answers. Returns undefined when neither does.
 */
export function detectEngine(cacheDir, prefer) {
  const confPath = join(cacheDir, 'containers.conf');
  writeFileSync(confPath, CONTAINERS_CONF);
  const podmanEnv = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? confPath };
  const candidates = [
    { name: 'podman', env: podmanEnv },
    { name: 'docker', env: { ...process.env, DOCKER_BUILDKIT: '1' } },
  ].filter((c) => prefer === undefined || c.name === prefer);
  for (const c of candidates) {
    if (answers(c.name, ['info'], c.env)) return makeEngine(c.name, c.env);
  }
  return undefined;
}

function makeEngine(name, env) {
  const isPodman = name === 'podman';
  return {
    name,
    /** Runs the engine with inherited stdio; throws with the command line when it fails. */
    run(args, opts = {}) {
      const r = spawnSync(name, args, { stdio: opts.input === undefined ? 'inherit' : ['pipe', 'inherit', 'inherit'], input: opts.input, env, timeout: opts.timeoutMs });
      if (r.status !== 0) throw new Error(`${name} ${args.join(' ')}: exit ${r.status ?? r.signal ?? r.error?.message}`);
    },
    /** Runs the engine and returns { code, out } (stdout + stderr) without throwing. */
    capture(args, opts = {}) {
      const r = spawnSync(name, args, { encoding: 'utf8', env, timeout: opts.timeoutMs ?? 120_000, input: opts.input });
      return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
    },
    hasImage(ref) {
      return spawnSync(name, ['image', 'inspect', ref], { stdio: 'ignore', env }).status === 0;
    },
    /** Image size in bytes as the engine reports it. */
    imageSize(ref) {
      const r = spawnSync(name, ['image', 'inspect', '--format', '{{.Size}}', ref], { encoding: 'utf8', env });
      return Number(r.stdout.trim());
    },
    /** Extra `build` flags: Docker-format images (HEALTHCHECK is dropped from OCI ones) and no pulls of a local base. */
    buildFlags(localBase) {
      return isPodman ? ['--format', 'docker', ...(localBase ? ['--pull=never'] : [])] : [];
    },
    /**
     * Fully qualified names to tag: podman would store a short `kvstore/kvstore:x` as
     * `localhost/kvstore/kvstore:x`, while a kubelet resolves it to `docker.io/kvstore/kvstore:x`.
     */
    qualify(ref) {
      const first = ref.split('/')[0] ?? '';
      const hasRegistry = ref.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
      return isPodman && !hasRegistry ? `docker.io/${ref.includes('/') ? ref : `library/${ref}`}` : ref;
    },
    /** `run` flags for a container whose HEALTHCHECK is run by hand: podman would ask systemd for timers. */
    healthRunFlags: isPodman ? ['--health-interval', 'disable'] : [],
    env,
  };
}
