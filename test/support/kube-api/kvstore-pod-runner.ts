/**
 * The kvstore implementation of the kubelet's pod runner port: each Pod is a real kvstore
 * member process (`node <build>/server/main.js`) on the pod's own 127.x address.
 *
 * - the kvstore container runs what its image runs: its command (else the image's ENTRYPOINT, read
 *   from the image's Dockerfile: image-entrypoint.ts) must be the image's `kvstore`; the arguments
 *   after it and the env become the member's flags and environment (pod-command.ts): fieldRefs and `$(VAR)` expanded, the image tag `kvstore/kvstore:X.Y.Z` as
 *   KVSTORE_SERVER_VERSION=X.Y.Z;
 * - URLs naming pods (`http://<pod>.<svc>.<ns>.svc:2380`, `http://0.0.0.0:2379`, …) are mapped
 *   to the pods' local hosts and ports (pod-addresses.ts), stable per pod name, so a recreated
 *   pod keeps its address;
 * - a PersistentVolumeClaim volume is the directory `<root>/pvc/<ns>/<claim>` (so it outlives
 *   the pod: same claim, same data) — with `readClaims`, `<root>/pvc/<ns>/<claim>/<claim uid>`,
 *   so a claim deleted and created again is a new, empty volume as in a cluster —, an emptyDir is per pod uid; mount paths in flags and env are
 *   replaced by those directories; without --data-dir the member's default `<name>.kvstore`
 *   lives in `<root>/pods/<ns>/<pod>` (kept across restarts of the pod);
 * - a secret volume is a directory per pod uid holding one file per key of the Secret's data
 *   (read through `readSecrets`, given by whoever owns the API server);
 * - readiness: the readiness probe's httpGet (mapped) or tcpSocket (a TCP connect), else GET
 *   /health on the first --listen-client-urls URL, answering 200;
 * - init containers run first, each to completion, as `node <args>` (the image's `node` command, e.g.
 *   the restore init container's script), with the same mapping of env, volumes and URLs and
 *   `KVSTORECTL_MAIN` = the build's kvstorectl (URLs in its args are mapped, its env is left as
 *   it is: it names the operator, not a pod); one that fails fails the start (the kubelet retries);
 * - stop: SIGTERM, SIGKILL after the grace period.
 *
 * Processes are registered with the test harness (registry.ts): none outlives the test file.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import type { MemberAddress } from '../addresses.js';
import { BUILD_ROOT, KVSTORE_MAIN } from '../paths.js';
import { makeTempDir, registry } from '../registry.js';
import { spawn } from 'node:child_process';
import { ServerProcess } from '../server-process.js';
import type { PodRunner, RunningPod } from './kubelet.js';
import { imageProcess, type ImageProcess } from './image-entrypoint.js';
import { PodAddressBook, type UrlContext } from './pod-addresses.js';
import { containerCommand, initContainers, type ContainerView, type VolumeView } from './pod-command.js';
import type { KubeObject } from './types.js';

/** Options of the kvstore pod runner. */
export interface KvstorePodRunnerOptions {
  /** Where volumes and working directories live (default: a temp dir removed after the test file). */
  readonly rootDir?: string;
  /** kvstore's main.js (default: the build's server/main.js). */
  readonly kvstoreMain?: string;
  /** Environment added to every member (the pod's own env wins). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Kept up to date with `addresses.addressMap()` whenever a pod is placed: the
   * `--member-address-map` file of an operator run as its own process.
   */
  readonly addressMapFile?: string;
}

/** How long a new run of a pod waits for the previous run to exit before killing it. */
const PREVIOUS_EXIT_MS = 20_000;

function httpStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('probe timed out')));
    req.on('error', () => resolve(0));
    req.end();
  });
}

function tcpOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port, timeout: 2000 }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('timeout', () => s.destroy(new Error('probe timed out')));
    s.on('error', () => resolve(false));
  });
}

/** A PersistentVolumeClaim's uid, or undefined when there is no such claim. */
export type ClaimReader = (namespace: string, name: string) => Promise<string | undefined>;

/** A Secret's `data` (base64 values), or undefined when there is no such Secret. */
export type SecretReader = (namespace: string, name: string) => Promise<Readonly<Record<string, string>> | undefined>;

function flagValue(args: readonly string[], env: Readonly<Record<string, string>>, flag: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a.startsWith(`--${flag}=`)) return a.slice(flag.length + 3);
    if (a === `--${flag}`) return args[i + 1];
  }
  return env[`KVSTORE_${flag.toUpperCase().replaceAll('-', '_')}`];
}

export class KvstorePodRunner implements PodRunner {
  /** The pods' addresses: `resolve(url)` maps pod DNS URLs for clients outside the "cluster". */
  readonly addresses = new PodAddressBook();
  private readonly root: string;
  private readonly main: string;
  private readonly imageOf: (ref: string | undefined) => ImageProcess | undefined;
  private readonly processes = new Map<string, ServerProcess[]>();
  private secrets: SecretReader | undefined;
  private claims: ClaimReader | undefined;
  private readonly initLogs = new Map<string, string>();
  /** Called as each pod starts, before its init containers (a test's hook, e.g. to spoil a file the pod will fetch). */
  onStart: ((pod: KubeObject) => Promise<void>) | undefined;

  constructor(private readonly opts: KvstorePodRunnerOptions = {}) {
    this.root = opts.rootDir ?? makeTempDir('kube-pods');
    this.main = opts.kvstoreMain ?? KVSTORE_MAIN;
    // What an image runs comes from its Dockerfile in the source tree above the build.
    this.imageOf = (ref) => imageProcess(ref, resolve(BUILD_ROOT, '..'));
  }

  /**
   * Where secret volumes come from (the API server the pods belong to, created after the
   * runner): each key of the Secret's data becomes a file of the volume's directory.
   */
  readSecrets(reader: SecretReader): void {
    this.secrets = reader;
  }

  /** Where claim uids come from: from then on a claim's volume is per uid (a recreated claim is empty). */
  readClaims(reader: ClaimReader): void {
    this.claims = reader;
  }

  /** Every process run for a pod (namespace/name), oldest first. */
  runsOf(pod: string, namespace = 'default'): readonly ServerProcess[] {
    return this.processes.get(`${namespace}/${pod}`) ?? [];
  }

  /** The output of every run of a pod. */
  logs(pod: string, namespace = 'default'): string {
    return this.runsOf(pod, namespace).map((p) => p.logs()).join('');
  }

  /** The kubelet's log read: an init container's output (all runs), or the member container's. */
  containerLog(namespace: string, pod: string, container: string): string | undefined {
    const init = this.initLogsOf(pod, namespace);
    if (container !== 'kvstore') return init === '' ? undefined : init;
    return this.runsOf(pod, namespace).length === 0 ? undefined : this.logs(pod, namespace);
  }

  /** `http://<host>:<port>` a client here uses for a pod's container port. */
  async urlOf(pod: string, containerPort: number, namespace = 'default'): Promise<string> {
    const port = await this.addresses.portOf(namespace, pod, containerPort);
    return `http://${this.addresses.addressOf(namespace, pod).host}:${port}`;
  }

  /**
   * Places a pod before it exists (e.g. the members a scale-up will add), so the address map
   * file already holds it: its host and a port per container port, stable from then on.
   */
  async place(pod: string, subdomain: string, containerPorts: readonly number[] = [2379, 2380], namespace = 'default'): Promise<void> {
    this.addresses.setSubdomain(namespace, pod, subdomain);
    for (const p of containerPorts) await this.addresses.portOf(namespace, pod, p);
    this.writeAddressMap();
  }

  private writeAddressMap(): void {
    const file = this.opts.addressMapFile;
    if (file === undefined) return;
    // Write then rename: a reader never sees half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify(this.addresses.addressMap(), null, 2));
    renameSync(`${file}.tmp`, file);
  }

  /** Runs one init container to completion (see the file header); throws when it fails. */
  private async runInit(pod: KubeObject, init: ContainerView, podIP: string, hostPathOf: (v: VolumeView) => string | undefined, ctx: UrlContext): Promise<void> {
    const what = `pod ${ctx.namespace}/${pod.metadata.name ?? ''} init container ${init.name}`;
    const cmd = containerCommand(pod, podIP, hostPathOf, init, this.imageOf);
    if ('error' in cmd) throw new Error(`${what}: ${cmd.error}`);
    if (cmd.executable !== 'node') throw new Error(`${what}: only node commands are run here, not ${cmd.executable}`);
    const env: Record<string, string> = { ...process.env, ...this.opts.env, ...cmd.env, KVSTORECTL_MAIN: join(BUILD_ROOT, 'ctl', 'main.js') } as Record<string, string>;
    // Args only: the env holds the operator's URL (127.0.0.1 here), which names no pod.
    await this.addresses.prepare(cmd.args, ctx);
    const args = cmd.args.map((a) => this.addresses.rewrite(a, ctx));
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    registry.track(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (out += s));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    this.initLogs.set(`${ctx.namespace}/${pod.metadata.name ?? ''}`, `${this.initLogs.get(`${ctx.namespace}/${pod.metadata.name ?? ''}`) ?? ''}${out}`);
    if (code !== 0) throw new Error(`${what} exited ${code}: ${out}`);
  }

  /** The output of every init container run of a pod. */
  initLogsOf(pod: string, namespace = 'default'): string {
    return this.initLogs.get(`${namespace}/${pod}`) ?? '';
  }

  async start(pod: KubeObject): Promise<RunningPod> {
    const ns = pod.metadata.namespace ?? 'default';
    const name = pod.metadata.name ?? '';
    const spec = (pod.spec ?? {}) as { hostname?: string; subdomain?: string };
    const address = this.addresses.addressOf(ns, name);
    const workDir = join(this.root, 'pods', ns, name);
    mkdirSync(workDir, { recursive: true });
    const secretDirs = new Map<string, string>();
    for (const v of ((pod.spec ?? {}) as { volumes?: VolumeView[] }).volumes ?? []) {
      if (v.secret === undefined) continue;
      const data = await this.secrets?.(ns, v.secret.secretName);
      if (data === undefined) throw new Error(`pod ${ns}/${name}: secret ${v.secret.secretName} not found (volume ${v.name})`);
      const dir = join(this.root, 'secrets', ns, pod.metadata.uid ?? name, v.name);
      mkdirSync(dir, { recursive: true });
      for (const [k, b64] of Object.entries(data)) writeFileSync(join(dir, k), Buffer.from(b64, 'base64'), { mode: 0o600 });
      secretDirs.set(v.name, dir);
    }
    const claimUids = new Map<string, string>();
    for (const v of ((pod.spec ?? {}) as { volumes?: VolumeView[] }).volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      const uid = claim === undefined ? undefined : await this.claims?.(ns, claim);
      if (claim !== undefined && uid !== undefined) claimUids.set(claim, uid);
    }
    const hostPathOf = (v: VolumeView): string | undefined => {
      if (v.secret !== undefined) return secretDirs.get(v.name);
      const claim = v.persistentVolumeClaim?.claimName;
      const uid = claim === undefined ? undefined : claimUids.get(claim);
      const dir = claim !== undefined
        ? join(this.root, 'pvc', ns, claim, ...(uid === undefined ? [] : [uid]))
        : v.emptyDir !== undefined ? join(this.root, 'empty', ns, pod.metadata.uid ?? name, v.name) : undefined;
      if (dir !== undefined) mkdirSync(dir, { recursive: true });
      return dir;
    };
    const cmd = containerCommand(pod, address.host, hostPathOf, undefined, this.imageOf);
    if ('error' in cmd) throw new Error(`pod ${ns}/${name}: ${cmd.error}`);
    if (cmd.executable !== 'kvstore') throw new Error(`pod ${ns}/${name}: its container runs ${cmd.executable}; this kubelet runs kvstore members`);
    const ctx: UrlContext = { namespace: ns, self: { name: spec.hostname ?? name, subdomain: spec.subdomain } };
    await this.onStart?.(pod);
    for (const init of initContainers(pod)) await this.runInit(pod, init, address.host, hostPathOf, ctx);
    const env = { ...this.opts.env, ...cmd.env };
    await this.addresses.prepare([...cmd.args, ...Object.values(env)], ctx);
    const args = cmd.args.map((a) => this.addresses.rewrite(a, ctx));
    for (const k of Object.keys(env)) env[k] = this.addresses.rewrite(env[k] ?? '', ctx);
    if (spec.subdomain !== undefined) this.addresses.setSubdomain(ns, name, spec.subdomain);

    // kvstore's default data dir is `<name>.kvstore` in the working directory: put it in the pod's.
    if (flagValue(args, env, 'data-dir') === undefined && flagValue(args, env, 'config-file') === undefined) {
      env.KVSTORE_DATA_DIR = join(workDir, `${flagValue(args, env, 'name') ?? 'default'}.kvstore`);
    }
    const listen = flagValue(args, env, 'listen-client-urls')?.split(',')[0];
    let probeUrl: string;
    let tcpProbe: { host: string; port: number } | undefined;
    if (cmd.readiness?.tcp === true) {
      tcpProbe = { host: address.host, port: await this.addresses.portOf(ns, name, cmd.readiness.port) };
      probeUrl = `http://${tcpProbe.host}:${tcpProbe.port}/`;
    } else if (cmd.readiness !== undefined) {
      probeUrl = `http://${address.host}:${await this.addresses.portOf(ns, name, cmd.readiness.port)}${cmd.readiness.path}`;
    } else {
      probeUrl = `${listen ?? `http://${address.host}:${await this.addresses.portOf(ns, name, 2379)}`}/health`;
    }
    const clientUrl = listen ?? probeUrl.replace(/\/[^/]*$/, '');
    const peerUrl = flagValue(args, env, 'listen-peer-urls')?.split(',')[0] ?? clientUrl;
    const port = (u: string): number => Number(new URL(u).port);
    const member: MemberAddress = {
      name, host: address.host, clientPort: port(clientUrl), peerPort: port(peerUrl),
      clientUrl, peerUrl, endpoint: `${address.host}:${port(clientUrl)}`,
    };
    this.writeAddressMap();
    const proc = new ServerProcess({
      kind: 'kvstore', address: member, dataDir: flagValue(args, env, 'data-dir') ?? env.KVSTORE_DATA_DIR ?? workDir,
      command: process.execPath, args: [this.main, ...args], env, readyTimeoutMs: 0, waitReady: false,
    });
    const runs = this.processes.get(`${ns}/${name}`) ?? [];
    // A pod force-deleted and recreated at once: its previous process may still be exiting.
    const previous = runs[runs.length - 1];
    if (previous?.running === true) {
      const timer = setTimeout(() => void previous.kill9(), PREVIOUS_EXIT_MS);
      await previous.exited();
      clearTimeout(timer);
    }
    runs.push(proc);
    this.processes.set(`${ns}/${name}`, runs);
    await proc.start(false);
    return {
      podIP: address.host,
      ready: async () => proc.running && (tcpProbe !== undefined ? await tcpOpen(tcpProbe.host, tcpProbe.port) : (await httpStatus(probeUrl)) === 200),
      exited: proc.exited(),
      stop: async (graceSeconds: number) => {
        if (!proc.running) return;
        const timer = setTimeout(() => void proc.kill9(), Math.max(graceSeconds, 0) * 1000);
        try {
          await proc.stop('SIGTERM');
        } finally {
          clearTimeout(timer);
        }
      },
    };
  }
}
