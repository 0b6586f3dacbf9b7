/**
 * The flags of `kvstore gateway start` and `kvstore grpc-proxy start`, with etcd 3.4's names
 * and defaults, read into what the proxies take. Pure apart from `readFile` (certificates).
 * Accepted and unused, as etcd's own: `--discovery-srv*`, `--insecure-discovery` (no DNS SRV
 * discovery here: they are refused when set), `--data-dir`, `--enable-pprof`, `--debug`.
 */
import { Command, CommanderError, Option } from 'commander';
import { parseGoDuration } from '../config/duration.js';
import { opensslCiphers } from '../tls/cipher-suites.js';
import { parseEndpoint, type Endpoint } from './endpoint-pool.js';
import { nonEmptyCnProblem } from './client-cert-name.js';
import type { UpstreamOptions } from './upstream-clients.js';
import type { ListenTls } from './grpc-proxy.js';
import type { ProxyIdentity } from './grpc-pass-through.js';

export interface GatewayPlan {
  readonly kind: 'gateway';
  readonly listenHost: string;
  readonly listenPort: number;
  readonly endpoints: readonly Endpoint[];
  readonly retryDelayMs: number;
}

export interface GrpcProxyPlan {
  readonly kind: 'grpc-proxy';
  readonly listenHost: string;
  readonly listenPort: number;
  readonly upstream: UpstreamOptions;
  readonly identity: ProxyIdentity;
  readonly listenTls?: ListenTls;
  readonly maxConcurrentStreams?: number;
}

export type ProxyCommand = GatewayPlan | GrpcProxyPlan | { readonly kind: 'error'; readonly message: string } | { readonly kind: 'help'; readonly text: string };

const MAX_INT32 = 2 ** 31 - 1;
const MAX_UINT32 = 2 ** 32 - 1;
/** etcd's default `--max-send-bytes`: 1.5 MiB plus gRPC's overhead allowance. */
const DEFAULT_MAX_SEND_BYTES = 1.5 * 1024 * 1024 + 512 * 1024;

const commaList = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), ...v.split(',').filter((s) => s !== '')];

class FlagProblem extends Error {}

function hostPort(flag: string, text: string): { host: string; port: number } {
  const e = parseEndpoint(text);
  if (e === undefined) throw new FlagProblem(`invalid --${flag} ${JSON.stringify(text)}: expected host:port`);
  return e;
}

function integer(flag: string, max: number): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > max) throw new FlagProblem(`invalid --${flag} ${JSON.stringify(v)}: expected an integer from 0 to ${max}`);
    return n;
  };
}

function discoveryRefused(o: Record<string, unknown>): void {
  if (o.discoverySrv) throw new FlagProblem('--discovery-srv is not supported: give the members with --endpoints');
}

function gatewayCommand(found: (p: ProxyCommand) => void): Command {
  return new Command('start')
    .description('start the gateway: a TCP proxy to the members\' client URLs')
    .option('--listen-addr <addr>', 'listen address', '127.0.0.1:23790')
    .option('--endpoints <list>', 'comma separated etcd cluster endpoints', commaList)
    .option('--retry-delay <duration>', 'duration of delay before retrying failed endpoints', '1m0s')
    .option('--discovery-srv <domain>', 'DNS domain used to bootstrap initial cluster')
    .option('--discovery-srv-name <name>', 'service name to query when using DNS discovery')
    .option('--insecure-discovery', 'accept insecure SRV records')
    .option('--trusted-ca-file <file>', 'path to the client server TLS CA file for verifying discovered endpoints')
    .action((o: Record<string, unknown>) => {
      discoveryRefused(o);
      const listen = hostPort('listen-addr', o.listenAddr as string);
      const endpoints = ((o.endpoints as string[] | undefined) ?? ['127.0.0.1:2379']).map((e) => hostPort('endpoints', e));
      const delay = parseGoDuration(o.retryDelay as string);
      if (!delay.ok) throw new FlagProblem(`invalid --retry-delay ${JSON.stringify(o.retryDelay)}: ${delay.reason}`);
      for (const e of endpoints) {
        if (e.port === listen.port && e.host === listen.host) throw new FlagProblem(`endpoint (${e.host}:${e.port}) should not resolve to the gateway listen addr (${o.listenAddr as string})`);
      }
      found({ kind: 'gateway', listenHost: listen.host, listenPort: listen.port, endpoints, retryDelayMs: delay.ms });
    });
}

function grpcProxyCommand(readFile: (p: string) => Buffer, hostname: string, found: (p: ProxyCommand) => void): Command {
  return new Command('start')
    .description('start the gRPC proxy')
    .option('--listen-addr <addr>', 'listen address', '127.0.0.1:23790')
    .option('--endpoints <list>', 'comma separated etcd cluster endpoints', commaList)
    .option('--advertise-client-url <url>', 'advertise address to register', '127.0.0.1:23790')
    .option('--discovery-srv <domain>', 'domain name to query for SRV records describing cluster endpoints')
    .option('--discovery-srv-name <name>', 'service name to query when using DNS discovery')
    .option('--insecure-discovery', 'accept insecure SRV records')
    .option('--metrics-addr <addr>', 'not served by this proxy')
    .option('--data-dir <dir>', 'data directory for persistent data', 'default.proxy')
    .option('--enable-pprof', 'accepted, no effect')
    .option('--debug', 'accepted, no effect')
    .addOption(new Option('--max-send-bytes <n>', 'message send limits in bytes').argParser(integer('max-send-bytes', MAX_INT32)).default(DEFAULT_MAX_SEND_BYTES))
    .addOption(new Option('--max-recv-bytes <n>', 'message receive limits in bytes').argParser(integer('max-recv-bytes', MAX_INT32)).default(MAX_INT32))
    .addOption(new Option('--max-concurrent-streams <n>', 'maximum concurrent streams each client can open').argParser(integer('max-concurrent-streams', MAX_UINT32)).default(MAX_UINT32))
    .option('--cert <file>', 'identify secure connections with the members using this TLS certificate file')
    .option('--key <file>', 'identify secure connections with the members using this TLS key file')
    .option('--cacert <file>', 'verify certificates of TLS-enabled members using this CA bundle')
    .option('--insecure-skip-tls-verify', 'skip authentication of the members\' TLS certificates')
    .option('--cert-file <file>', 'identify secure connections to the proxy using this TLS certificate file')
    .option('--key-file <file>', 'identify secure connections to the proxy using this TLS key file')
    .option('--trusted-ca-file <file>', 'verify client certificates of connections to the proxy using this CA bundle')
    .option('--listen-cipher-suites <list>', 'comma-separated TLS cipher suites between client and proxy', commaList)
    .option('--namespace <prefix>', 'string to prefix to all keys (not supported)')
    .option('--resolver-prefix <prefix>', 'not supported')
    .action((o: Record<string, unknown>) => {
      discoveryRefused(o);
      for (const flag of ['namespace', 'resolverPrefix'] as const) {
        if (o[flag]) throw new FlagProblem(`--${flag === 'namespace' ? 'namespace' : 'resolver-prefix'} is not supported by kvstore grpc-proxy`);
      }
      if (o.metricsAddr) throw new FlagProblem('--metrics-addr is not supported by kvstore grpc-proxy');
      const listen = hostPort('listen-addr', o.listenAddr as string);
      const read = (flag: string, file: unknown): Buffer | undefined => {
        if (typeof file !== 'string' || file === '') return undefined;
        try {
          return readFile(file);
        } catch (err) {
          throw new FlagProblem(`cannot read --${flag} ${file}: ${(err as Error).message}`);
        }
      };
      const cert = read('cert', o.cert);
      const key = read('key', o.key);
      const ca = read('cacert', o.cacert);
      if (cert !== undefined) {
        const problem = nonEmptyCnProblem(cert);
        if (problem !== undefined) throw new FlagProblem(problem);
      }
      const anyTls = cert !== undefined || key !== undefined || ca !== undefined || o.insecureSkipTlsVerify === true;
      const upstream: UpstreamOptions = {
        endpoints: (o.endpoints as string[] | undefined) ?? ['127.0.0.1:2379'],
        tls: anyTls ? { cert, key, ca, insecureSkipVerify: o.insecureSkipTlsVerify === true } : undefined,
        maxSendBytes: o.maxSendBytes as number,
        maxRecvBytes: o.maxRecvBytes as number,
      };
      const ciphers = opensslCiphers((o.listenCipherSuites as string[] | undefined) ?? []);
      if (!ciphers.ok) throw new FlagProblem(ciphers.message);
      const listenCert = read('cert-file', o.certFile);
      const listenKey = read('key-file', o.keyFile);
      if ((listenCert === undefined) !== (listenKey === undefined)) throw new FlagProblem('--cert-file and --key-file go together');
      const listenTls = listenCert !== undefined && listenKey !== undefined ? { cert: listenCert, key: listenKey, ca: read('trusted-ca-file', o.trustedCaFile), ciphers: ciphers.ciphers } : undefined;
      const streams = o.maxConcurrentStreams as number;
      const identity = { name: hostname, advertiseClientUrl: o.advertiseClientUrl as string };
      found({ kind: 'grpc-proxy', listenHost: listen.host, listenPort: listen.port, upstream, identity, listenTls, maxConcurrentStreams: streams === MAX_UINT32 ? undefined : streams });
    });
}

const BOOLEAN_FLAGS = new Set(['--insecure-discovery', '--enable-pprof', '--debug', '--insecure-skip-tls-verify', '--help', '-h']);

/**
 * Flags may come before the `start` word (`kvstore gateway --endpoints=… start`, as etcd's
 * command line takes them anywhere): `start` is moved right after the command.
 */
function startFirst(argv: readonly string[]): string[] {
  const [command, ...rest] = argv;
  const at = rest.findIndex((a, i) => a === 'start' && (i === 0 || !rest[i - 1]!.startsWith('-') || rest[i - 1]!.includes('=') || BOOLEAN_FLAGS.has(rest[i - 1]!)));
  if (command === undefined || at < 0) return [...argv];
  return [command, 'start', ...rest.slice(0, at), ...rest.slice(at + 1)];
}

/** Reads `kvstore gateway …` / `kvstore grpc-proxy …` (argv without the program name). */
export function parseProxyCommand(given: readonly string[], readFile: (p: string) => Buffer, hostname = ''): ProxyCommand {
  const argv = startFirst(given);
  let plan: ProxyCommand | undefined;
  let out = '';
  const found = (p: ProxyCommand): void => {
    plan = p;
  };
  const program = new Command('kvstore').exitOverride().configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  program.addCommand(new Command('gateway').description('the gateway: a TCP proxy to the cluster').addCommand(gatewayCommand(found)));
  program.addCommand(new Command('grpc-proxy').description('the gRPC proxy').addCommand(grpcProxyCommand(readFile, hostname, found)));
  for (const c of program.commands) {
    c.exitOverride().configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
    for (const s of c.commands) s.exitOverride().configureOutput({ writeOut: (x) => (out += x), writeErr: (x) => (out += x) });
  }
  try {
    program.parse(argv as string[], { from: 'user' });
  } catch (err) {
    if (err instanceof FlagProblem) return { kind: 'error', message: err.message };
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help') return { kind: 'help', text: out };
      return { kind: 'error', message: out.trim() || err.message };
    }
    throw err;
  }
  if (plan === undefined) return { kind: 'help', text: out || program.commands.find((c) => c.name() === argv[0])?.helpInformation() || program.helpInformation() };
  return plan;
}
