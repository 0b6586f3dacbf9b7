/**
 * The address book of pods run as local processes: each pod name (per namespace) gets its own
 * loopback host, kept for the life of the runner so a recreated pod comes back on the same
 * address, and each container port it is reached on gets a free port on that host.
 *
 * URL rewriting: in `scheme://HOST[:PORT]`, HOST is a pod when it is a pod DNS name
 * (`<pod>.<subdomain>[.<ns>[.svc[.cluster.local]]]` — only when it ends in `.svc`/
 * `.svc.cluster.local` or the subdomain is the pod's own), a pod's host, or — for the pod's own
 * command line — `0.0.0.0`, `localhost`, `127.0.0.1`, `[::]` or its hostname. Such URLs become
 * `scheme://<pod host>:<mapped port>`; other URLs are left alone.
 */
import { freePorts, nextLoopbackHost } from '../addresses.js';

/** One pod's place on this machine. */
export interface PodAddress {
  readonly host: string;
  /** container port → host port */
  readonly ports: Map<number, number>;
}

/** Who a URL's host names, seen from `self` (namespace, pod name, subdomain). */
export interface UrlContext {
  readonly namespace: string;
  readonly self?: { readonly name: string; readonly subdomain: string | undefined };
}

const URL_RE = /\b(https?|unixs?):\/\/(\[[^\]]*\]|[^/:,\s"']+)(?::(\d+))?/g;
const LOCAL = new Set(['0.0.0.0', 'localhost', '127.0.0.1', '[::]', '::', '[::1]']);

export class PodAddressBook {
  private readonly pods = new Map<string, PodAddress>();
  private readonly subdomains = new Map<string, string>();

  /** Records the pod's subdomain (its headless Service), for `addressMap`. */
  setSubdomain(namespace: string, pod: string, subdomain: string): void {
    this.subdomains.set(`${namespace}/${pod}`, subdomain);
  }

  /**
   * `host:port` as members advertise it → `host:port` to dial, for every placed pod and port:
   * `<pod>.<subdomain>.<ns>.svc[.cluster.local]:<port>` (when the subdomain is known) and
   * `<pod IP>:<container port>`. The format of the operator's `--member-address-map` file.
   */
  addressMap(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, a] of this.pods) {
      const [ns = '', pod = ''] = key.split('/');
      const sub = this.subdomains.get(key);
      for (const [containerPort, hostPort] of a.ports) {
        const to = `${a.host}:${hostPort}`;
        if (sub !== undefined) {
          out[`${pod}.${sub}.${ns}.svc:${containerPort}`] = to;
          out[`${pod}.${sub}.${ns}.svc.cluster.local:${containerPort}`] = to;
        }
        out[`${a.host}:${containerPort}`] = to;
      }
    }
    return out;
  }

  /** The pod's address (allocated on first use, then stable). */
  addressOf(namespace: string, pod: string): PodAddress {
    const key = `${namespace}/${pod}`;
    let a = this.pods.get(key);
    if (a === undefined) {
      a = { host: nextLoopbackHost(), ports: new Map() };
      this.pods.set(key, a);
    }
    return a;
  }

  /** Which pod a URL host names, or undefined. */
  podOfHost(host: string, ctx: UrlContext): { namespace: string; name: string } | undefined {
    const h = host.replace(/\.$/, '');
    if (ctx.self !== undefined && (LOCAL.has(h) || h === ctx.self.name)) return { namespace: ctx.namespace, name: ctx.self.name };
    for (const [key, a] of this.pods) {
      if (a.host === h) {
        const [namespace = '', name = ''] = key.split('/');
        return { namespace, name };
      }
    }
    const labels = h.split('.');
    if (labels.length < 2) return undefined;
    const [name = '', subdomain, ns] = labels;
    const rest = labels.slice(3).join('.');
    const clusterSuffix = rest === 'svc' || rest === 'svc.cluster.local';
    const ownSubdomain = ctx.self?.subdomain !== undefined && subdomain === ctx.self.subdomain && (labels.length === 2 || (labels.length === 3) || clusterSuffix);
    if (!clusterSuffix && !ownSubdomain) return undefined;
    return { namespace: ns ?? ctx.namespace, name };
  }

  /** Allocates host ports for every pod URL in `texts` (so `rewrite` can run synchronously). */
  async prepare(texts: readonly string[], ctx: UrlContext): Promise<void> {
    for (const text of texts) {
      for (const m of text.matchAll(URL_RE)) {
        const pod = this.podOfHost(m[2] ?? '', ctx);
        if (pod === undefined || m[3] === undefined) continue;
        await this.portOf(pod.namespace, pod.name, Number(m[3]));
      }
    }
  }

  /** The host port for a pod's container port (allocated on first use, then stable). */
  async portOf(namespace: string, pod: string, containerPort: number): Promise<number> {
    const a = this.addressOf(namespace, pod);
    let p = a.ports.get(containerPort);
    if (p === undefined) {
      const used = new Set(a.ports.values());
      do [p] = await freePorts(a.host, 1);
      while (p === undefined || used.has(p));
      a.ports.set(containerPort, p);
    }
    return p;
  }

  /** `text` with every pod URL mapped (ports must have been prepared; unprepared ones stay). */
  rewrite(text: string, ctx: UrlContext): string {
    return text.replace(URL_RE, (all, scheme: string, host: string, port: string | undefined) => {
      const pod = this.podOfHost(host, ctx);
      if (pod === undefined) return all;
      const a = this.addressOf(pod.namespace, pod.name);
      if (port === undefined) return `${scheme}://${a.host}`;
      const mapped = a.ports.get(Number(port));
      return mapped === undefined ? all : `${scheme}://${a.host}:${mapped}`;
    });
  }

  /** Every pod placed so far: `<ns>/<pod>` → host and container port → host port (for a separate process). */
  entries(): Record<string, { host: string; ports: Record<string, number> }> {
    const out: Record<string, { host: string; ports: Record<string, number> }> = {};
    for (const [key, a] of this.pods) out[key] = { host: a.host, ports: Object.fromEntries([...a.ports].map(([c, h]) => [String(c), h])) };
    return out;
  }

  /** Maps a URL as a client outside the cluster would need it (allocating as needed). */
  async resolve(url: string, namespace = 'default'): Promise<string> {
    await this.prepare([url], { namespace });
    return this.rewrite(url, { namespace });
  }
}
