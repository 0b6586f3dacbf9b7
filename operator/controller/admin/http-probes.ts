/**
 * The member's HTTP endpoints: `/version`, `/health`, `/metrics`, over http, or over https with
 * the operator's client certificate (a member with `--client-cert-auth` asks for one).
 *
 * Contract: every call is bounded by `timeoutMs` (and the caller's signal); a refused
 * connection, a failed TLS handshake, a timeout, a non-JSON body or a missing field is a
 * `PortResult` failure naming the URL, never a throw. `/health` → ok(false) for a 503 (the
 * member answered: unhealthy).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { portFail, portOk, type MemberAccess, type MemberMetrics, type MemberVersion, type PortResult } from '../ports.js';
import { sampleOf } from './prometheus-text.js';

/** TLS material for https URLs (none: the system CAs, no client certificate); `serverName`: the name to verify when not the URL's host. */
export type HttpTls = (Partial<NonNullable<MemberAccess['tls']>> & { readonly serverName?: string }) | undefined;

export const IS_LEADER_METRIC = 'kvstore_server_is_leader';
export const V2_STORE_SIZE_METRIC = 'kvstore_v2_store_size_bytes';

type Got = { readonly status: number; readonly body: string };

function get(url: string, timeoutMs: number, signal: AbortSignal | undefined, tls: HttpTls): Promise<PortResult<Got>> {
  const bound = AbortSignal.timeout(timeoutMs);
  const s = signal === undefined ? bound : AbortSignal.any([bound, signal]);
  return new Promise((resolve) => {
    const fail = (err: Error & { code?: string }): void => {
      resolve(portFail(`GET ${url}: ${bound.aborted ? `no answer within ${timeoutMs} ms` : (err.code ?? err.message)}`));
    };
    const onResponse = (res: IncomingMessage): void => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(portOk({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') })));
      res.on('error', fail);
    };
    try {
      // A connection per probe (no pooled socket a restarted member has closed under us).
      const req = url.startsWith('https:')
        ? httpsRequest(url, { method: 'GET', signal: s, agent: false, ...(tls === undefined ? {} : { ca: tls.ca, cert: tls.cert, key: tls.key, servername: tls.serverName }) }, onResponse)
        : httpRequest(url, { method: 'GET', signal: s, agent: false }, onResponse);
      req.on('error', fail);
      req.end();
    } catch (err) {
      fail(err as Error);
    }
  });
}

function jsonOf(url: string, body: string): PortResult<Record<string, unknown>> {
  try {
    const v: unknown = JSON.parse(body);
    if (typeof v === 'object' && v !== null) return portOk(v as Record<string, unknown>);
  } catch {
    // fall through to the failure below: the body is not JSON
  }
  return portFail(`GET ${url}: not a JSON object: ${body.slice(0, 80)}`);
}

export async function fetchVersion(clientURL: string, timeoutMs: number, signal?: AbortSignal, tls?: HttpTls): Promise<PortResult<MemberVersion>> {
  const url = `${clientURL}/version`;
  const r = await get(url, timeoutMs, signal, tls);
  if (!r.ok) return r;
  if (r.value.status !== 200) return portFail(`GET ${url}: status ${r.value.status}`);
  const j = jsonOf(url, r.value.body);
  if (!j.ok) return j;
  const server = j.value.etcdserver;
  const cluster = j.value.etcdcluster;
  if (typeof server !== 'string' || typeof cluster !== 'string') return portFail(`GET ${url}: no etcdserver/etcdcluster in ${r.value.body}`);
  return portOk({ server, cluster });
}

export async function fetchHealth(clientURL: string, timeoutMs: number, signal?: AbortSignal, tls?: HttpTls): Promise<PortResult<boolean>> {
  const url = `${clientURL}/health`;
  const r = await get(url, timeoutMs, signal, tls);
  if (!r.ok) return r;
  if (r.value.status !== 200 && r.value.status !== 503) return portFail(`GET ${url}: status ${r.value.status}`);
  const j = jsonOf(url, r.value.body.trim());
  if (!j.ok) return j;
  return portOk(r.value.status === 200 && j.value.health === 'true');
}

export async function fetchMetrics(clientURL: string, timeoutMs: number, signal?: AbortSignal, tls?: HttpTls): Promise<PortResult<MemberMetrics>> {
  const url = `${clientURL}/metrics`;
  const r = await get(url, timeoutMs, signal, tls);
  if (!r.ok) return r;
  if (r.value.status !== 200) return portFail(`GET ${url}: status ${r.value.status}`);
  const leader = sampleOf(r.value.body, IS_LEADER_METRIC);
  if (leader === undefined) return portFail(`GET ${url}: no ${IS_LEADER_METRIC}`);
  const v2 = sampleOf(r.value.body, V2_STORE_SIZE_METRIC);
  return portOk(v2 === undefined ? { isLeader: leader === 1 } : { isLeader: leader === 1, v2StoreBytes: v2 });
}
