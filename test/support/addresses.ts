/**
 * Loopback addresses and free ports for spawned members.
 *
 * Every member gets its own host 127.0.0.x (x in 2…254, spread by pid and a per-process counter,
 * so parallel test files rarely share a host) and ports picked by binding port 0 on that host.
 * Both ports of one member are held open together while picking so they never coincide.
 */
import { createServer, type Server } from 'node:net';

/** Where one member listens; the client endpoint is what etcdctl's --endpoints takes. */
export interface MemberAddress {
  readonly name: string;
  readonly host: string;
  readonly clientPort: number;
  readonly peerPort: number;
  /** `http://host:clientPort` */
  readonly clientUrl: string;
  /** `http://host:peerPort` */
  readonly peerUrl: string;
  /** `host:clientPort` */
  readonly endpoint: string;
}

let hostCounter = 0;

/** A loopback host for the next member: 127.0.0.x with x in 2…254. */
export function nextLoopbackHost(): string {
  const x = 2 + ((process.pid * 37 + hostCounter++) % 253);
  return `127.0.0.${x}`;
}

function listenOnce(host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen({ host, port: 0, exclusive: true }, () => resolve(srv));
  });
}

function portOf(srv: Server): number {
  const addr = srv.address();
  if (addr === null || typeof addr === 'string') throw new Error('listener has no TCP address');
  return addr.port;
}

function close(srv: Server): Promise<void> {
  return new Promise((resolve) => srv.close(() => resolve()));
}

/** `count` distinct ports that were free on `host` a moment ago. */
export async function freePorts(host: string, count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenOnce(host));
    return servers.map(portOf);
  } finally {
    await Promise.all(servers.map(close));
  }
}

/** A fresh host and two free ports (client, peer) for a member named `name`. */
export async function reserveAddress(name: string, host: string = nextLoopbackHost()): Promise<MemberAddress> {
  const [clientPort, peerPort] = await freePorts(host, 2);
  return {
    name,
    host,
    clientPort,
    peerPort,
    clientUrl: `http://${host}:${clientPort}`,
    peerUrl: `http://${host}:${peerPort}`,
    endpoint: `${host}:${clientPort}`,
  };
}

/** The `--initial-cluster` value for a set of members: `n1=http://…,n2=http://…`. */
export function initialClusterOf(members: readonly MemberAddress[]): string {
  return members.map((m) => `${m.name}=${m.peerUrl}`).join(',');
}
