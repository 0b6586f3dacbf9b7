// `npm run images -- --smoke`: the built images run, by hand's worth of checks, with the engine
// (podman or docker) and --network host on a free loopback address:
//   member:   /health answers 200 from the host; etcdctl (when on the PATH) puts and gets a key;
//             kvstorectl inside the container reads it back and reports the endpoint healthy;
//             the image's HEALTHCHECK passes; the process runs as uid 1000.
//   operator: --help; `kvstore-operator local -f` on a one-member copy of deploy/local/cluster.yaml
//             brings the member up (status readyMembers 1/1 written back into the file) and /readyz answers.
// Containers and their anonymous volumes are removed afterwards, also on failure.
/* global fetch, AbortSignal -- Node's own (eslint.config.js declares only a few globals for .mjs) */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse, stringify } from 'yaml';

/** True when host:port can be bound now. */
function free(host, port) {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/** A loopback address whose ports are all free (127.0.0.0/8 is all loopback on Linux). */
async function loopback(ports) {
  for (let i = 0; i < 50; i++) {
    const host = `127.0.${100 + Math.floor(Math.random() * 100)}.${2 + Math.floor(Math.random() * 250)}`;
    const ok = await Promise.all(ports.map((p) => free(host, p)));
    if (ok.every(Boolean)) return host;
  }
  throw new Error('no free loopback address');
}

async function waitFor(what, timeoutMs, probe) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const r = await probe();
      if (r === true) return;
      last = String(r);
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await sleep(500);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s (last: ${last})`);
}

function check(label, cond, detail) {
  if (!cond) throw new Error(`${label}: ${detail}`);
  console.log(`smoke: ok  ${label}`);
}

async function memberSmoke(engine, image) {
  const host = await loopback([2379, 2380]);
  const client = `http://${host}:2379`;
  const name = `kvstore-smoke-member-${process.pid}`;
  engine.run(['run', '-d', ...engine.healthRunFlags, '--name', name, '--network', 'host', '-e', `HEALTHCHECK_URL=${client}/health`, image,
    '--name', 'smoke', '--listen-client-urls', client, '--advertise-client-urls', client,
    '--listen-peer-urls', `http://${host}:2380`, '--initial-advertise-peer-urls', `http://${host}:2380`,
    '--initial-cluster', `smoke=http://${host}:2380`]);
  try {
    const t0 = Date.now();
    await waitFor('member /health', 60_000, async () => {
      const r = await fetch(`${client}/health`, { signal: AbortSignal.timeout(2000) });
      return r.ok || `HTTP ${r.status}`;
    });
    const body = await (await fetch(`${client}/health`)).text();
    check(`member ${image}: GET ${client}/health (${Date.now() - t0} ms after start)`, /"health":\s*"?true/.test(body), body);
    const etcdctl = spawnSync('etcdctl', ['version'], { encoding: 'utf8' });
    if (etcdctl.status === 0) {
      const env = { ...process.env, ETCDCTL_API: '3' };
      const put = spawnSync('etcdctl', ['--endpoints', `${host}:2379`, 'put', 'smoke/key', 'from-etcdctl'], { encoding: 'utf8', env });
      check('etcdctl put', put.status === 0 && put.stdout.trim() === 'OK', put.stdout + put.stderr);
      const get = spawnSync('etcdctl', ['--endpoints', `${host}:2379`, 'get', 'smoke/key', '--print-value-only'], { encoding: 'utf8', env });
      check('etcdctl get', get.status === 0 && get.stdout.trim() === 'from-etcdctl', get.stdout + get.stderr);
    } else {
      console.log('smoke: etcdctl not on the PATH; putting the key with kvstorectl');
      const put = engine.capture(['exec', name, 'kvstorectl', '--endpoints', `${host}:2379`, 'put', 'smoke/key', 'from-etcdctl']);
      check('kvstorectl put', put.code === 0, put.out);
    }
    const get = engine.capture(['exec', name, 'kvstorectl', '--endpoints', `${host}:2379`, 'get', 'smoke/key', '--print-value-only']);
    check('kvstorectl get (in the container)', get.code === 0 && get.out.trim() === 'from-etcdctl', get.out);
    const health = engine.capture(['exec', name, 'kvstorectl', '--endpoints', `${host}:2379`, 'endpoint', 'health']);
    check('kvstorectl endpoint health', health.code === 0 && /is healthy/.test(health.out), health.out);
    const uid = engine.capture(['exec', name, 'id', '-u']);
    check('runs as uid 1000', uid.out.trim() === '1000', uid.out);
    if (engine.name === 'podman') {
      const hc = engine.capture(['healthcheck', 'run', name]);
      check('HEALTHCHECK (podman healthcheck run)', hc.code === 0, hc.out || `exit ${hc.code}`);
    } else {
      await waitFor('HEALTHCHECK healthy', 60_000, () => engine.capture(['inspect', '--format', '{{.State.Health.Status}}', name]).out.trim() === 'healthy');
      check('HEALTHCHECK healthy', true, '');
    }
  } catch (err) {
    console.error(engine.capture(['logs', '--tail', '40', name]).out);
    throw err;
  } finally {
    engine.capture(['rm', '-f', '-v', name]);
  }
}

async function operatorSmoke(engine, image, root) {
  const help = engine.capture(['run', '--rm', ...engine.healthRunFlags, image, '--help']);
  check(`operator ${image}: --help`, help.code === 0 && /local/.test(help.out) && /run/.test(help.out), help.out);
  const host = await loopback([8080]);
  const dir = mkdtempSync(join(tmpdir(), 'kvstore-smoke-operator-'));
  const manifest = parse(readFileSync(join(root, 'deploy/local/cluster.yaml'), 'utf8'));
  manifest.spec.size = 1;
  writeFileSync(join(dir, 'cluster.yaml'), stringify(manifest));
  chownSync(dir, 1000, 1000);
  chownSync(join(dir, 'cluster.yaml'), 1000, 1000);
  const name = `kvstore-smoke-operator-${process.pid}`;
  engine.run(['run', '-d', ...engine.healthRunFlags, '--name', name, '--network', 'host', '-v', `${dir}:/work`, '-w', '/work', image,
    'local', '-f', '/work/cluster.yaml', '--metrics-bind-address', `${host}:8080`]);
  try {
    await waitFor('operator local: readyMembers 1/1 in the file', 120_000, () => {
      const status = parse(readFileSync(join(dir, 'cluster.yaml'), 'utf8'))?.status;
      return status?.readyMembers === '1/1' || `status ${JSON.stringify(status?.readyMembers ?? status?.phase ?? null)}`;
    });
    const status = parse(readFileSync(join(dir, 'cluster.yaml'), 'utf8')).status;
    check(`operator local -f: member up (phase ${status.phase}, readyMembers ${status.readyMembers})`, true, '');
    const ready = await fetch(`http://${host}:8080/readyz`, { signal: AbortSignal.timeout(3000) });
    check(`operator /readyz on ${host}:8080`, ready.ok, `HTTP ${ready.status}`);
  } catch (err) {
    console.error(engine.capture(['logs', '--tail', '40', name]).out);
    throw err;
  } finally {
    engine.capture(['stop', '-t', '20', name], { timeoutMs: 60_000 });
    engine.capture(['rm', '-f', '-v', name]);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs both checks; throws on the first failure. */
export async function smoke(engine, { member, operator, root }) {
  await memberSmoke(engine, member);
  await operatorSmoke(engine, operator, root);
  console.log('smoke: all checks passed');
}
