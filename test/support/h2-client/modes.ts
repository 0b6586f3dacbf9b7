/**
 * The client-port modes every HTTP/2 conformance file and the fuzzer run against, and how to
 * start a member in one of them: our own HTTP/2 framing on the core thread (default) and on a
 * front-end thread (`KVSTORE_CLIENT_THREADS=1`), each over plaintext (h2c, prior knowledge) and
 * TLS (ALPN `h2`).
 *
 * `H2_MODES=default,threads,default-tls,threads-tls` (comma list of names) narrows the set.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { eventually, reserveAddress, startKvstore, type Member } from '../processes.js';
import { makeTlsFiles } from '../tls-certs.js';
import type { Target } from './connection.js';

export interface ServerMode {
  readonly name: string;
  readonly env: Readonly<Record<string, string>>;
  readonly tls: boolean;
}

export const ALL_MODES: readonly ServerMode[] = [
  { name: 'default', env: {}, tls: false },
  { name: 'threads', env: { KVSTORE_CLIENT_THREADS: '1' }, tls: false },
  { name: 'default-tls', env: {}, tls: true },
  { name: 'threads-tls', env: { KVSTORE_CLIENT_THREADS: '1' }, tls: true },
];

/** The modes selected by `H2_MODES` (all by default). */
export function selectedModes(): readonly ServerMode[] {
  const raw = process.env.H2_MODES;
  if (raw === undefined || raw.trim() === '') return ALL_MODES;
  const names = new Set(raw.split(',').map((s) => s.trim()));
  return ALL_MODES.filter((m) => names.has(m.name));
}

/** A member serving in `mode`, and how to reach its client port. */
export interface ModeMember {
  readonly mode: ServerMode;
  readonly member: Member;
  readonly target: Target;
}

/** Starts one kvstore member in `mode`; resolves once `GET /health` answers 200. */
export async function startInMode(mode: ServerMode, name: string): Promise<ModeMember> {
  if (!mode.tls) {
    const member = await startKvstore({ name, env: mode.env });
    return { mode, member, target: { url: member.clientUrl } };
  }
  const plain = await reserveAddress(name);
  const address = { ...plain, clientUrl: `https://${plain.host}:${plain.clientPort}` };
  const files = await makeTlsFiles([address.host]);
  const member = await startKvstore({
    address,
    env: mode.env,
    waitReady: false,
    args: [`--cert-file=${files.serverCert}`, `--key-file=${files.serverKey}`],
  });
  const target: Target = { url: address.clientUrl, ca: readFileSync(files.caCert, 'utf8') };
  await eventually(`${name} answers /health over TLS`, async () => {
    if (!member.running) throw new Error(`exited:\n${member.logs().slice(-3000)}`);
    return (await healthStatus(target).catch(() => 0)) === 200 ? true : undefined;
  }, { timeoutMs: 30_000 });
  return { mode, member, target };
}

/** `GET /health` over HTTP/1.1 (TLS when the target is https): the status code. */
export function healthStatus(target: Target, timeoutMs = 3_000): Promise<number> {
  const url = new URL('/health', target.url);
  return new Promise((resolve, reject) => {
    const options = { method: 'GET', timeout: timeoutMs, ...(url.protocol === 'https:' ? { ca: target.ca, ALPNProtocols: ['http/1.1'] } : {}) };
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET /health timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
