/**
 * Steps and checks of a rolling upgrade, run against real members (see rolling-upgrade.ts).
 *
 * - `replaceMember` is the per-member procedure of SPEC "Upgrade rules" 4: stop with SIGTERM,
 *   then start the same member (name, data dir, URLs, token, cluster state: the same flags) with
 *   another KVSTORE_SERVER_VERSION, and wait until it serves;
 * - `waitUntil` polls until a check holds, bounded by a deadline (never a timing assertion);
 * - the `expect…` checks assert one interface row of SPEC on one member.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceError } from '@grpc/grpc-js';
import { etcdctl } from './etcdctl.js';
import { eventually } from './eventually.js';
import { gatewayRange, healthOf, metricNamesOf } from './member-http.js';
import type { Member } from './server-process.js';

/** Upper bound of every wait of the upgrade tests (a generous multiple of the 4 s version-monitor period). */
export const WAIT_MS = 25_000;

/** `3.4.0` → `3.4`. */
export function lineOf(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

/** The environment that makes a kvstore member present `version`. */
export function versionEnv(version: string): Record<string, string> {
  return { KVSTORE_SERVER_VERSION: version };
}

/**
 * Calls `check` until it returns without throwing (an assertion that holds), at most `timeoutMs`;
 * then fails with `what` and `check`'s last error. Returns what `check` returned.
 */
export async function waitUntil<T>(what: string, check: () => Promise<T> | T, timeoutMs = WAIT_MS): Promise<T> {
  const [value] = await eventually(what, async () => [await check()] as const, { timeoutMs });
  return value;
}

/** SIGTERM, then the same member on `version`; resolves with the exit code of the stopped run once the new run serves. */
export async function replaceMember(m: Member, version: string): Promise<number | null> {
  const code = await m.stop('SIGTERM');
  await m.restart({ env: { ...m.env, ...versionEnv(version) } });
  return code;
}

/** `etcdctl endpoint health` over all members reports each endpoint healthy (exit 0). */
export async function assertClusterHealthy(members: readonly Member[]): Promise<void> {
  const r = await etcdctl(members.map((m) => m.endpoint), ['endpoint', 'health']);
  assert.equal(r.code, 0, `endpoint health failed:\n${r.stdout}${r.stderr}`);
  for (const m of members) {
    assert.match(r.stdout + r.stderr, new RegExp(`${m.endpoint.replace(/\./g, '\\.')} is healthy`), `${m.name} healthy`);
  }
}

/**
 * What a gateway prefix does on a member: serve Range (200 with the probed key), be absent (404),
 * or redirect (307) to another prefix.
 */
export type GatewayRow = 'serves' | 'absent' | { readonly redirectTo: string };

/** Asserts every prefix row of `rows` on `m`, probing Range of `key` (which holds `value`). */
export async function expectGateway(m: Member, rows: Readonly<Record<string, GatewayRow>>, key: string, value: string): Promise<void> {
  for (const [prefix, row] of Object.entries(rows)) {
    const a = await gatewayRange(m, prefix, key);
    const where = `POST ${prefix}/kv/range on ${m.name} (${m.env.KVSTORE_SERVER_VERSION ?? 'default'})`;
    if (row === 'serves') {
      assert.equal(a.status, 200, `${where}: ${a.body}`);
      const body = JSON.parse(a.body) as { kvs?: { key?: string; value?: string }[] };
      assert.deepEqual(
        body.kvs?.map((kv) => [kv.key, kv.value]),
        [[Buffer.from(key).toString('base64'), Buffer.from(value).toString('base64')]],
        `${where} returns the key`,
      );
    } else if (row === 'absent') {
      assert.equal(a.status, 404, `${where} is gone: ${a.body}`);
    } else {
      assert.equal(a.status, 307, `${where} redirects: ${a.body}`);
      assert.equal(a.location, `${row.redirectTo}/kv/range`, `${where} redirects to ${row.redirectTo}`);
    }
  }
}

/** Asserts `/health` of `m` answers 200 with exactly `body`. */
export async function expectHealthBody(m: Member, body: string): Promise<void> {
  const a = await healthOf(m);
  assert.equal(a.status, 200, `/health of ${m.name}: ${a.body}`);
  assert.equal(a.body, body, `/health body of ${m.name} (binary ${m.env.KVSTORE_SERVER_VERSION ?? 'default'})`);
}

/** The hexadecimal member ids by name, from `etcdctl member list` through `m`. */
export async function memberIds(m: Member): Promise<Map<string, string>> {
  const r = await etcdctl(m.endpoint, ['member', 'list']);
  assert.equal(r.code, 0, `member list: ${r.stderr}`);
  const ids = new Map<string, string>();
  for (const line of r.stdout.trim().split('\n')) {
    const [id, , name] = line.split(', ');
    ids.set(name, id);
  }
  return ids;
}

/**
 * The outcome of one unary gRPC call, as text: `ok`, or `<code> <details>` of the error. `call`
 * starts the call with the given callback (the caller sets its deadline and closes its client).
 */
export function grpcOutcome(call: (done: (err: ServiceError | null) => void) => void): Promise<string> {
  return new Promise((resolve) => call((err) => resolve(err ? `${err.code} ${err.details}` : 'ok')));
}

/** The exit code of the member's current run once it ends; throws when it still runs after `timeoutMs`. */
export async function exitCodeWithin(m: Member, timeoutMs = WAIT_MS): Promise<number | null> {
  const timer = new AbortController();
  try {
    const outcome = await Promise.race([
      m.exited().then((code) => ({ code })),
      sleep(timeoutMs, undefined, { signal: timer.signal }).then(() => undefined),
    ]);
    if (outcome === undefined) throw new Error(`${m.name} still runs after ${timeoutMs} ms`);
    return outcome.code;
  } finally {
    timer.abort();
  }
}

/** Metric names a member must and must not expose while the cluster runs one line. */
export interface MetricNameRows {
  readonly present: readonly string[];
  readonly absent: readonly string[];
}

/** Asserts `/metrics` of `m` exposes every `present` name and none of the `absent` ones. */
export async function expectMetricNames(m: Member, rows: MetricNameRows): Promise<void> {
  const names = await metricNamesOf(m);
  const where = `/metrics of ${m.name} (binary ${m.env.KVSTORE_SERVER_VERSION ?? 'default'})`;
  assert.deepEqual(rows.present.filter((n) => !names.has(n)), [], `${where}: names missing`);
  assert.deepEqual(rows.absent.filter((n) => names.has(n)), [], `${where}: names that should be gone`);
}
