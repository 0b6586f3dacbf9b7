/**
 * The JSON gateway's auth routes and its `Authorization` header, kvstore (3.4 line) against
 * the real etcd 3.4: the same POSTs under `/v3` give the same HTTP statuses and bodies (header
 * ids, terms and revisions and the token text masked).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { etcdVersion, startMember, type Member, type ServerKind } from '../support/processes.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

interface Call {
  readonly path: string;
  readonly body: unknown;
  /** `{token}` (the last token captured) or a literal; none: no header. */
  readonly auth?: string;
  /** Capture `token` from the answer. */
  readonly capture?: boolean;
}

const CALLS: readonly Call[] = [
  { path: '/auth/authenticate', body: { name: 'root', password: 'x' } },
  { path: '/auth/user/add', body: { name: 'root', password: 'rootpw' } },
  { path: '/auth/user/add', body: { name: 'root', password: 'rootpw' } },
  { path: '/auth/enable', body: {} },
  { path: '/auth/user/grant', body: { user: 'root', role: 'root' } },
  { path: '/auth/role/add', body: { name: 'reader' } },
  { path: '/auth/role/grant', body: { name: 'reader', perm: { permType: 'READ', key: b64('pub/'), range_end: b64('pub0') } } },
  { path: '/auth/role/grant', body: { name: 'reader', perm: { permType: 'READWRITE', key: b64('own') } } },
  { path: '/auth/user/add', body: { name: 'alice', password: 'alicepw' } },
  { path: '/auth/user/grant', body: { user: 'alice', role: 'reader' } },
  { path: '/auth/role/get', body: { role: 'reader' } },
  { path: '/auth/role/list', body: {} },
  { path: '/auth/user/get', body: { name: 'alice' } },
  { path: '/auth/user/list', body: {} },
  { path: '/kv/put', body: { key: b64('pub/a'), value: b64('1') } },
  { path: '/auth/enable', body: {} },
  { path: '/kv/range', body: { key: b64('pub/a') } },
  { path: '/auth/authenticate', body: { name: 'alice', password: 'wrong' } },
  { path: '/auth/authenticate', body: { name: 'alice', password: 'alicepw' }, capture: true },
  { path: '/kv/range', body: { key: b64('pub/a') }, auth: '{token}' },
  { path: '/kv/put', body: { key: b64('pub/b'), value: b64('2') }, auth: '{token}' },
  { path: '/kv/put', body: { key: b64('own'), value: b64('mine') }, auth: '{token}' },
  { path: '/kv/range', body: { key: b64('pub/a') }, auth: 'forged.1' },
  { path: '/auth/user/list', body: {}, auth: '{token}' },
  { path: '/auth/user/get', body: { name: 'alice' }, auth: '{token}' },
  { path: '/auth/disable', body: {}, auth: '{token}' },
  { path: '/maintenance/snapshot', body: {}, auth: '{token}' },
  { path: '/maintenance/defragment', body: {}, auth: '{token}' },
  { path: '/auth/authenticate', body: { name: 'root', password: 'rootpw' }, capture: true },
  { path: '/auth/user/delete', body: { name: 'alice' }, auth: '{token}' },
  { path: '/auth/role/delete', body: { role: 'reader' }, auth: '{token}' },
  { path: '/auth/disable', body: {}, auth: '{token}' },
  { path: '/kv/range', body: { key: b64('own') } },
];

function maskBody(text: string): string {
  return text
    .replace(/"(cluster_id|member_id|raft_term|revision)":"\d+"/g, '"$1":"<n>"')
    .replace(/"token":"[^"]+"/g, '"token":"<token>"');
}

async function story(m: Member): Promise<string[]> {
  const out: string[] = [];
  let token = '';
  for (const c of CALLS) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (c.auth !== undefined) headers.authorization = c.auth === '{token}' ? token : c.auth;
    const res = await fetch(`${m.clientUrl}/v3${c.path}`, { method: 'POST', headers, body: JSON.stringify(c.body), signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    if (c.capture) token = (JSON.parse(text) as { token?: string }).token ?? '';
    out.push(`${c.path}${c.auth ? ` [${c.auth}]` : ''} → ${res.status} ${maskBody(text.trim())}`);
  }
  return out;
}

async function side(kind: ServerKind): Promise<string[]> {
  const m = await startMember(kind, { env: kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {} });
  try {
    return await story(m);
  } finally {
    await m.kill9();
  }
}

void describe(`gateway auth routes: kvstore vs etcd ${etcdVersion()}`, () => {
  void it('users, roles, enable, Authorization header, denials, disable', async () => {
    const [ref, sub] = await Promise.all([side('etcd'), side('kvstore')]);
    if (process.env.DIFF_SHOW === '1') process.stderr.write(`${ref.join('\n')}\n`);
    assert.deepEqual(sub, ref);
    assert.match(ref.join('\n'), /\/kv\/put \[\{token\}\] → 403/);
  });
});
