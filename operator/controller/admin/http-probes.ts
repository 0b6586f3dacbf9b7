/**
 * The member's plain HTTP endpoints, read with fetch: `/version`, `/health`, `/metrics`.
 *
 * Contract: every call is bounded by `timeoutMs` (and the caller's signal); a refused
 * connection, a timeout, a non-JSON body or a missing field is a `PortResult` failure naming
 * the URL, never a throw. `/health` → ok(false) for a 503 (the member answered: unhealthy).
 */
import { portFail, portOk, type MemberMetrics, type MemberVersion, type PortResult } from '../ports.js';
import { sampleOf } from './prometheus-text.js';

export const IS_LEADER_METRIC = 'kvstore_server_is_leader';
export const V2_STORE_SIZE_METRIC = 'kvstore_v2_store_size_bytes';

type Got = { readonly status: number; readonly body: string };

async function get(url: string, timeoutMs: number, signal?: AbortSignal): Promise<PortResult<Got>> {
  const bound = AbortSignal.timeout(timeoutMs);
  const s = signal === undefined ? bound : AbortSignal.any([bound, signal]);
  try {
    const res = await fetch(url, { signal: s });
    return portOk({ status: res.status, body: await res.text() });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message);
    return portFail(`GET ${url}: ${why}`);
  }
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

export async function fetchVersion(clientURL: string, timeoutMs: number, signal?: AbortSignal): Promise<PortResult<MemberVersion>> {
  const url = `${clientURL}/version`;
  const r = await get(url, timeoutMs, signal);
  if (!r.ok) return r;
  if (r.value.status !== 200) return portFail(`GET ${url}: status ${r.value.status}`);
  const j = jsonOf(url, r.value.body);
  if (!j.ok) return j;
  const server = j.value.etcdserver;
  const cluster = j.value.etcdcluster;
  if (typeof server !== 'string' || typeof cluster !== 'string') return portFail(`GET ${url}: no etcdserver/etcdcluster in ${r.value.body}`);
  return portOk({ server, cluster });
}

export async function fetchHealth(clientURL: string, timeoutMs: number, signal?: AbortSignal): Promise<PortResult<boolean>> {
  const url = `${clientURL}/health`;
  const r = await get(url, timeoutMs, signal);
  if (!r.ok) return r;
  if (r.value.status !== 200 && r.value.status !== 503) return portFail(`GET ${url}: status ${r.value.status}`);
  const j = jsonOf(url, r.value.body.trim());
  if (!j.ok) return j;
  return portOk(r.value.status === 200 && j.value.health === 'true');
}

export async function fetchMetrics(clientURL: string, timeoutMs: number, signal?: AbortSignal): Promise<PortResult<MemberMetrics>> {
  const url = `${clientURL}/metrics`;
  const r = await get(url, timeoutMs, signal);
  if (!r.ok) return r;
  if (r.value.status !== 200) return portFail(`GET ${url}: status ${r.value.status}`);
  const leader = sampleOf(r.value.body, IS_LEADER_METRIC);
  if (leader === undefined) return portFail(`GET ${url}: no ${IS_LEADER_METRIC}`);
  const v2 = sampleOf(r.value.body, V2_STORE_SIZE_METRIC);
  return portOk(v2 === undefined ? { isLeader: leader === 1 } : { isLeader: leader === 1, v2StoreBytes: v2 });
}
