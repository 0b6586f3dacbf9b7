/**
 * A member's client HTTP surface as a test sees it: `/version`, `/health` and one JSON-gateway
 * call (`<prefix>/kv/range`), each answered as status + body, redirects NOT followed (a 307 of
 * an old gateway prefix is part of what is tested). Every request has its own timeout.
 */
import { readFileSync } from 'node:fs';
import { connect as http2Connect } from 'node:http2';
import type { Member } from './server-process.js';

/** One HTTP answer. `location` is the `Location` header (redirects), if any. */
export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
  readonly location: string | undefined;
}

const TIMEOUT_MS = 5_000;

async function call(url: string, init: RequestInit = {}): Promise<HttpAnswer> {
  const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  return { status: res.status, body: await res.text(), location: res.headers.get('location') ?? undefined };
}

/** `/version` of a member, both fields as served. */
export interface VersionBody {
  readonly etcdserver: string;
  readonly etcdcluster: string;
}

/** GET /version; throws when the answer is not 200 with both string fields. */
export async function versionOf(m: Member): Promise<VersionBody> {
  const a = await call(`${m.clientUrl}/version`);
  if (a.status !== 200) throw new Error(`GET ${m.clientUrl}/version answered ${a.status}: ${a.body}`);
  const v = JSON.parse(a.body) as Partial<VersionBody>;
  if (typeof v.etcdserver !== 'string' || typeof v.etcdcluster !== 'string') throw new Error(`unexpected /version body: ${a.body}`);
  return { etcdserver: v.etcdserver, etcdcluster: v.etcdcluster };
}

/** GET `url` and parse the body as a JSON object; throws on a non-200 answer or a body that is not JSON. */
export async function getJson(url: string): Promise<Record<string, string>> {
  const a = await call(url);
  if (a.status !== 200) throw new Error(`GET ${url} answered ${a.status}: ${a.body}`);
  try {
    return JSON.parse(a.body) as Record<string, string>;
  } catch (err) {
    throw new Error(`not JSON from ${url}: ${a.body}`, { cause: err });
  }
}

/** GET /health, body verbatim. */
export function healthOf(m: Member): Promise<HttpAnswer> {
  return call(`${m.clientUrl}/health`);
}

/** GET /metrics: the names of the metric families the member exposes (from `# TYPE` lines). */
export async function metricNamesOf(m: Member): Promise<ReadonlySet<string>> {
  const a = await call(`${m.clientUrl}/metrics`);
  if (a.status !== 200) throw new Error(`GET ${m.clientUrl}/metrics answered ${a.status}: ${a.body}`);
  return new Set([...a.body.matchAll(/^# TYPE (\S+) /gm)].map((x) => x[1]!));
}

/** POST `<prefix>/kv/range` with `{"key": base64(key)}` (the gateway's JSON mapping of Range). */
export function gatewayRange(m: Member, prefix: string, key: string): Promise<HttpAnswer> {
  return call(`${m.clientUrl}${prefix}/kv/range`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: Buffer.from(key).toString('base64') }),
  });
}

/**
 * GET `path` over HTTP/2 with TLS (ALPN h2, as curl does), presenting the client certificate
 * `cert`/`key` and trusting `ca` (file paths). The stream gives up after 10 s.
 */
export function getOverHttp2(origin: string, path: string, files: { readonly ca: string; readonly cert: string; readonly key: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(origin, { ca: readFileSync(files.ca), cert: readFileSync(files.cert), key: readFileSync(files.key) });
    session.on('error', reject);
    const stream = session.request({ ':path': path });
    let status = 0;
    const parts: Buffer[] = [];
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('data', (c: Buffer) => parts.push(c));
    stream.on('end', () => {
      session.close();
      resolve({ status, body: Buffer.concat(parts).toString('utf8') });
    });
    stream.on('error', reject);
    stream.setTimeout(10_000, () => stream.close());
  });
}
