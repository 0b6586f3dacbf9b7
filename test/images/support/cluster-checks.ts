/**
 * What the image tests ask of a running cluster, from the host: etcdctl 3.4 (test/support/
 * etcdctl.ts) for writes, reads, member list and endpoint health, and GET /version for the
 * cluster version. Each returns a value or throws with what it saw, so `eventually` can retry it.
 */
import { etcdctl } from '../../support/etcdctl.js';

/** `etcdctl put`; throws unless it printed OK. */
export async function put(endpoints: readonly string[], key: string, value: string): Promise<true> {
  const r = await etcdctl(endpoints, ['--command-timeout=5s', 'put', key, value], { timeoutMs: 15_000 });
  if (r.code !== 0 || r.stdout.trim() !== 'OK') throw new Error(`etcdctl put ${key}: exit ${r.code}: ${r.stdout}${r.stderr}`);
  return true;
}

/** `etcdctl get --print-value-only` (linearizable, or serializable: answered by the member itself). */
export async function get(endpoints: readonly string[], key: string, consistency: 'l' | 's' = 'l'): Promise<string> {
  const r = await etcdctl(endpoints, ['--command-timeout=5s', 'get', key, '--print-value-only', `--consistency=${consistency}`], { timeoutMs: 15_000 });
  if (r.code !== 0) throw new Error(`etcdctl get ${key}: exit ${r.code}: ${r.stderr}`);
  return r.stdout.trim();
}

/** `etcdctl member list -w json`: names and client URLs of the members that have started. */
export async function memberList(endpoints: readonly string[]): Promise<{ name: string; clientURLs: string[] }[]> {
  const r = await etcdctl(endpoints, ['--command-timeout=5s', 'member', 'list', '-w', 'json'], { timeoutMs: 15_000 });
  if (r.code !== 0) throw new Error(`etcdctl member list: exit ${r.code}: ${r.stderr}`);
  const doc = JSON.parse(r.stdout) as { members?: { name?: string; clientURLs?: string[] }[] };
  return (doc.members ?? []).map((m) => ({ name: m.name ?? '', clientURLs: m.clientURLs ?? [] }));
}

/**
 * `etcdctl endpoint health` of each endpoint; resolves when all are healthy, throws with the output
 * otherwise (etcdctl 3.4 prints the verdicts on stderr).
 */
export async function allHealthy(endpoints: readonly string[]): Promise<true> {
  const r = await etcdctl(endpoints, ['--command-timeout=5s', 'endpoint', 'health'], { timeoutMs: 20_000 });
  const lines = `${r.stdout}\n${r.stderr}`.split('\n');
  const healthy = endpoints.filter((e) => lines.some((l) => l.startsWith(`${e} is healthy`)));
  if (r.code !== 0 || healthy.length !== endpoints.length) throw new Error(`etcdctl endpoint health: exit ${r.code}: ${r.stdout}${r.stderr}`);
  return true;
}

/** GET /version of one member: { etcdserver, etcdcluster }. */
export async function versions(clientUrl: string): Promise<{ etcdserver: string; etcdcluster: string }> {
  const res = await fetch(`${clientUrl}/version`, { signal: AbortSignal.timeout(3000) });
  if (!res.ok) throw new Error(`GET ${clientUrl}/version: HTTP ${res.status}`);
  return (await res.json()) as { etcdserver: string; etcdcluster: string };
}

/** etcdctl's version, or why it cannot be run (then a reason to skip). */
export async function etcdctlVersion(): Promise<{ readonly version: string } | { readonly missing: string }> {
  const r = await etcdctl([], ['version'], { timeoutMs: 10_000 }).catch((e: unknown) => e instanceof Error ? e : new Error(String(e)));
  if (r instanceof Error) return { missing: `etcdctl cannot be run: ${r.message}` };
  const version = /etcdctl version:\s*(\S+)/.exec(r.stdout)?.[1];
  return version === undefined ? { missing: `etcdctl version: exit ${r.code}: ${r.stdout}${r.stderr}` } : { version };
}
