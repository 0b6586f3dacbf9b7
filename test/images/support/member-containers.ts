/**
 * A kvstore cluster of member containers on the host network: member i listens on its own
 * loopback address 127.0.99.(10+i), client port 22379 and peer port 22380 (away from etcd's e2e
 * ports and the other tests' 127.0.0.x), and keeps its data in the named volume
 * `<prefix>-<name>` mounted at the image's /var/lib/kvstore. A member is replaced by removing its
 * container and running a new one (same flags, possibly another image) on the same volume.
 * Every container and volume is named with the prefix, so `removeAll()` also clears what a
 * crashed run left behind.
 */
import type { Engine } from './engine.js';

export const CLIENT_PORT = 22379;
export const PEER_PORT = 22380;

export interface MemberSpec {
  readonly name: string;
  readonly host: string;
  readonly clientUrl: string;
  readonly peerUrl: string;
}

/** The members m1…m<size> on 127.0.99.11, .12, … */
export function memberSpecs(size: number): MemberSpec[] {
  return Array.from({ length: size }, (_, i) => {
    const host = `127.0.99.${11 + i}`;
    return { name: `m${i + 1}`, host, clientUrl: `http://${host}:${CLIENT_PORT}`, peerUrl: `http://${host}:${PEER_PORT}` };
  });
}

export class MemberContainers {
  readonly members: readonly MemberSpec[];

  constructor(private readonly engine: Engine, private readonly prefix: string, size: number) {
    this.members = memberSpecs(size);
  }

  containerOf(m: MemberSpec): string {
    return `${this.prefix}-${m.name}`;
  }

  endpoints(except?: MemberSpec): string[] {
    return this.members.filter((m) => m !== except).map((m) => m.clientUrl);
  }

  /** Runs member `m` from `image` on its volume (created on first use). */
  start(m: MemberSpec, image: string): void {
    const initialCluster = this.members.map((x) => `${x.name}=${x.peerUrl}`).join(',');
    this.must(['run', '-d', ...this.engine.healthRunFlags, '--name', this.containerOf(m), '--network', 'host',
      '--label', `${this.prefix}=member`, '-v', `${this.containerOf(m)}:/var/lib/kvstore`,
      '-e', `HEALTHCHECK_URL=${m.clientUrl}/health`, image,
      '--name', m.name, '--listen-client-urls', m.clientUrl, '--advertise-client-urls', m.clientUrl,
      '--listen-peer-urls', m.peerUrl, '--initial-advertise-peer-urls', m.peerUrl,
      '--initial-cluster', initialCluster, '--initial-cluster-state', 'new', '--initial-cluster-token', this.prefix]);
  }

  /** `podman kill` (SIGKILL): the member dies without a clean shutdown. */
  kill(m: MemberSpec): void {
    this.must(['kill', this.containerOf(m)]);
  }

  /** Stops (SIGTERM, then SIGKILL after 20 s) and removes the container; the volume stays. */
  stopAndRemove(m: MemberSpec): void {
    this.engine.capture(['stop', '-t', '20', this.containerOf(m)], { timeoutMs: 60_000 });
    this.must(['rm', '-f', this.containerOf(m)]);
  }

  /** Removes the container only (after a kill); the volume stays. */
  remove(m: MemberSpec): void {
    this.must(['rm', '-f', this.containerOf(m)]);
  }

  /** The image a member's container runs now. */
  imageOf(m: MemberSpec): string {
    return this.must(['inspect', '--format', '{{.ImageName}}', this.containerOf(m)]).trim();
  }

  logs(m: MemberSpec, lines = 30): string {
    return this.engine.capture(['logs', '--tail', String(lines), this.containerOf(m)]).out;
  }

  /** Removes every container and volume named with the prefix (also leftovers of earlier runs). */
  removeAll(): void {
    removeByPrefix(this.engine, this.prefix);
  }

  private must(args: readonly string[]): string {
    const r = this.engine.capture(args, { timeoutMs: 120_000 });
    if (r.code !== 0) throw new Error(`podman ${args.join(' ')}: exit ${r.code}: ${r.out.trim()}`);
    return r.out;
  }
}

/** Removes the containers (with their anonymous volumes) and named volumes whose name starts with `prefix`. */
export function removeByPrefix(engine: Engine, prefix: string): void {
  const names = engine.capture(['ps', '-a', '--format', '{{.Names}}', '--filter', `name=^${prefix}`]).out.split('\n').filter((n) => n.startsWith(prefix));
  if (names.length > 0) engine.capture(['rm', '-f', '-v', '-t', '5', ...names], { timeoutMs: 120_000 });
  const volumes = engine.capture(['volume', 'ls', '--format', '{{.Name}}']).out.split('\n').filter((n) => n.startsWith(prefix));
  if (volumes.length > 0) engine.capture(['volume', 'rm', '-f', ...volumes], { timeoutMs: 60_000 });
}
