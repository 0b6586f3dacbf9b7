/**
 * Differential (real etcd 3.4 vs kvstore): the v2 auth API (`/v2/auth/*`) and its checks on the
 * v2 keys API, with `--enable-v2`, byte for byte: the same requests, in the same order, to a fresh
 * member of each kind give the same status, `Content-Type`, `X-Etcd-Index` and body. The run
 * covers users and roles (create, grant, revoke, update, delete, their refusals), enable and
 * disable, HTTP basic auth and the guest role on `/v2/keys`, and, over TLS with
 * `--client-cert-auth`, a client certificate's Common Name as the user — the issuer's CN
 * included, as etcd looks up every certificate of the verified chain.
 * Then, kvstore only, three members: what one member writes holds on the others (the records
 * go through the log).
 */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { diffSubject, etcdVersion, eventually, reserveAddress, startCluster, startMember, type Member, type ServerKind } from '../support/processes.js';
import { issueCertificate, makeTlsFiles, type TlsFiles } from '../support/tls-certs.js';

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  /** `user:password` for HTTP basic auth. */
  readonly basic?: string;
  /** A client certificate (TLS runs). */
  readonly cert?: { readonly cert: string; readonly key: string };
}

type Send = (c: Call) => Promise<string>;

const ROOT = 'root:rootpw';
const put = (path: string, body: string, basic?: string): Call => ({ method: 'PUT', path, body, basic });
const get = (path: string, basic?: string): Call => ({ method: 'GET', path, basic });
const del = (path: string, basic?: string): Call => ({ method: 'DELETE', path, basic });

/** A transcript line: what etcd's v2 clients read from an answer. */
function line(c: Call, status: number, type: string | undefined, index: string | undefined, body: string): string {
  return `${c.method} ${c.path} ${c.basic ?? ''} → ${status} ${type ?? '-'} ${index ?? '-'} ${body}`;
}

function plainSender(m: Member): Send {
  return async (c) => {
    const headers: Record<string, string> = c.basic ? { authorization: `Basic ${Buffer.from(c.basic).toString('base64')}` } : {};
    const res = await fetch(`${m.clientUrl}${c.path}`, { method: c.method, body: c.body, headers, redirect: 'manual' });
    return line(c, res.status, res.headers.get('content-type') ?? undefined, res.headers.get('x-etcd-index') ?? undefined, await res.text());
  };
}

interface Answer {
  readonly status: number;
  readonly type: string | undefined;
  readonly index: string | undefined;
  readonly body: string;
}

function tlsCall(url: string, files: TlsFiles, c: Call): Promise<Answer> {
  const who = c.cert ?? { cert: files.clientCert, key: files.clientKey };
  const headers: Record<string, string> = c.basic ? { authorization: `Basic ${Buffer.from(c.basic).toString('base64')}` } : {};
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${url}${c.path}`, { method: c.method, headers, ca: readFileSync(files.caCert), cert: readFileSync(who.cert), key: readFileSync(who.key) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], index: res.headers['x-etcd-index'] as string | undefined, body }));
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

const tlsSender =
  (url: string, files: TlsFiles): Send =>
  async (c) => {
    const a = await tlsCall(url, files, c);
    return line(c, a.status, a.type, a.index, a.body);
  };

const SERVER_ENV = (kind: ServerKind): Record<string, string> => (kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {});

/** The cluster version is decided, so the member's own v2 writes that come first are applied (indices compare). */
async function settled(url: string, fetchFn: (u: string) => Promise<string>): Promise<void> {
  const want = `${etcdVersion().split('.').slice(0, 2).join('.')}.0`;
  await eventually('cluster version decided', async () => ((JSON.parse(await fetchFn(`${url}/version`)) as { etcdcluster: string }).etcdcluster === want ? true : undefined));
}

const USERS_AND_ROLES: readonly Call[] = [
  get('/v2/auth/enable'),
  get('/v2/auth/users'),
  get('/v2/auth/roles'),
  get('/v2/auth/roles/foo'),
  put('/v2/auth/roles/foo', '{"role":"foo","permissions":{"kv":{"read":["/foo/*"]}}}'),
  put('/v2/auth/roles/foo', '{"role":"foo"}'),
  put('/v2/auth/roles/foo', '{"role":"foo","grant":{"kv":{"write":["/foo/*","/bar"]}}}'),
  put('/v2/auth/roles/foo', '{"role":"foo","grant":{"kv":{"read":["/foo/*"]}}}'),
  put('/v2/auth/roles/foo', '{"role":"foo","revoke":{"kv":{"write":["/bar","/never"]}}}'),
  put('/v2/auth/roles/foo', '{"role":"foo","revoke":{"kv":{"write":["/never"]}}}'),
  put('/v2/auth/roles/foo', '{"role":"foo","grant":{"kv":{"read":["/x"]}},"permissions":{"kv":{"read":["/y"]}}}'),
  put('/v2/auth/roles/bar', '{"role":"other"}'),
  put('/v2/auth/roles/bar', '{"Role":"bar","Permissions":{"KV":{"Read":["/bar"]}}} trailing'),
  put('/v2/auth/roles/bar', '{"role":"bar","permissions":{"kv":{"read":"/bar"}}}'),
  put('/v2/auth/roles/root', '{"role":"root"}'),
  get('/v2/auth/roles/root'),
  put('/v2/auth/users/alice', '{"user":"alice"}'),
  put('/v2/auth/users/alice', '{"user":"alice","password":"alicepw"}'),
  put('/v2/auth/users/alice', '{"user":"alice"}'),
  put('/v2/auth/users/alice', '{"user":"alice"}'),
  put('/v2/auth/users/alice', '{"user":"alice","grant":["foo","ghost"]}'),
  put('/v2/auth/users/alice', '{"user":"alice","grant":["foo"]}'),
  put('/v2/auth/users/alice', '{"user":"alice","revoke":["bar"]}'),
  put('/v2/auth/users/alice', '{"user":"alice","revoke":["ghost"],"roles":["x"]}'),
  put('/v2/auth/users/alice', '{"user":"alice","revoke":["ghost"]}'),
  put('/v2/auth/users/carol', '{"user":"carol","password":"c","roles":["bar"]}'),
  put('/v2/auth/users/carol', '{"user":"carol","password":"c","roles":["bar"]}'),
  put('/v2/auth/users/bob', 'not json'),
  put('/v2/auth/users/bob', '{"user":"bob","password":"b"}'),
  get('/v2/auth/users/alice'),
  get('/v2/auth/users/nobody'),
  get('/v2/auth/users'),
  get('/v2/auth/roles'),
  get('/v2/auth/users/a/b'),
  { method: 'POST', path: '/v2/auth/users' },
  { method: 'POST', path: '/v2/auth/users/alice' },
  del('/v2/auth/users/nobody'),
  del('/v2/auth/roles/nobody'),
  del('/v2/auth/roles/root'),
  del('/v2/auth/users/bob'),
  put('/v2/auth/enable', ''),
  del('/v2/auth/enable'),
];

const ENABLED: readonly Call[] = [
  put('/v2/auth/users/root', '{"user":"root","password":"rootpw"}'),
  put('/v2/keys/foo/a', 'value=1'),
  put('/v2/auth/enable', ''),
  put('/v2/auth/enable', '', ROOT),
  get('/v2/auth/enable'),
  get('/v2/auth/users'),
  get('/v2/auth/users', 'alice:alicepw'),
  get('/v2/auth/users', 'alice:wrong'),
  get('/v2/auth/roles/guest', ROOT),
  get('/v2/keys/foo/a'),
  get('/v2/keys/foo/a', 'alice:alicepw'),
  get('/v2/keys/foo/a', 'alice:'),
  get('/v2/keys/foo?recursive=true', 'alice:alicepw'),
  get('/v2/keys/foo/?recursive=true', 'alice:alicepw'),
  put('/v2/keys/foo/b', 'value=2', 'alice:alicepw'),
  put('/v2/keys/bar', 'value=2', 'alice:alicepw'),
  put('/v2/auth/roles/guest', '{"role":"guest","revoke":{"kv":{"write":["/*"]}}}', ROOT),
  put('/v2/keys/anon', 'value=3'),
  get('/v2/keys/foo/a'),
  put('/v2/keys/anon', 'value=3', ROOT),
  del('/v2/auth/users/root', ROOT),
  { method: 'POST', path: '/v2/members', body: '{"peerURLs":["http://127.0.0.1:1"]}' },
  get('/v2/auth/users/root', ROOT),
  del('/v2/auth/enable', 'alice:alicepw'),
  del('/v2/auth/enable', ROOT),
  del('/v2/auth/enable'),
  put('/v2/keys/anon', 'value=4'),
];

async function plainRun(kind: ServerKind): Promise<string[]> {
  const m = await startMember(kind, { args: ['--enable-v2'], env: SERVER_ENV(kind) });
  try {
    await settled(m.clientUrl, async (u) => (await fetch(u)).text());
    const send = plainSender(m);
    const out: string[] = [];
    for (const c of [...USERS_AND_ROLES, ...ENABLED]) out.push(await send(c));
    return out;
  } finally {
    await m.stop('SIGTERM');
  }
}

async function certificateRun(kind: ServerKind): Promise<string[]> {
  const plain = await reserveAddress(`${kind}-v2-cn`);
  const address = { ...plain, clientUrl: `https://${plain.host}:${plain.clientPort}` };
  const files = await makeTlsFiles([address.host]);
  const alice = await issueCertificate(files, `${kind}-alice`, 'alice', []);
  const stranger = await issueCertificate(files, `${kind}-nobody`, 'nobody', []);
  const m = await startMember(kind, {
    address,
    waitReady: false,
    env: SERVER_ENV(kind),
    args: ['--enable-v2', `--cert-file=${files.serverCert}`, `--key-file=${files.serverKey}`, '--client-cert-auth', `--trusted-ca-file=${files.caCert}`],
  });
  try {
    const send = tlsSender(address.clientUrl, files);
    await settled(address.clientUrl, async (u) => {
      const r = await tlsCall(address.clientUrl, files, get(u.slice(address.clientUrl.length))).catch(() => undefined);
      return r?.body ?? '{}';
    });
    const calls: Call[] = [
      put('/v2/auth/users/root', '{"user":"root","password":"rootpw"}'),
      put('/v2/auth/roles/a', '{"role":"a","permissions":{"kv":{"read":["/a*"],"write":["/a*"]}}}'),
      put('/v2/auth/roles/c', '{"role":"c","permissions":{"kv":{"read":["/c*"],"write":["/c*"]}}}'),
      put('/v2/auth/users/alice', '{"user":"alice","password":"pw","roles":["a"]}'),
      put('/v2/auth/users/kvstore%20test%20CA', '{"user":"kvstore test CA","password":"pw","roles":["c"]}'),
      put('/v2/auth/roles/guest', '{"role":"guest","permissions":{"kv":{"read":[],"write":[]}}}'),
      put('/v2/auth/enable', ''),
      { ...put('/v2/keys/a1', 'value=1'), cert: alice },
      { ...put('/v2/keys/b1', 'value=1'), cert: alice },
      { ...put('/v2/keys/c1', 'value=1'), cert: stranger },
      { ...put('/v2/keys/a2', 'value=1'), cert: stranger },
      { ...get('/v2/auth/users'), cert: alice },
      { ...get('/v2/auth/users') },
      { ...put('/v2/keys/b1', 'value=1', 'root:rootpw'), cert: alice },
      { ...put('/v2/keys/b2', 'value=1', 'alice:pw'), cert: alice },
    ];
    const out: string[] = [];
    for (const c of calls) out.push(await send(c));
    return out;
  } finally {
    await m.stop('SIGTERM');
  }
}

void test('v2 auth: users, roles, enable, basic auth and the guest role on /v2/keys (etcd vs subject)', async (t) => {
  const reference = await plainRun('etcd');
  t.diagnostic(`etcd:\n${reference.join('\n')}`);
  const subject = await plainRun(diffSubject());
  assert.deepEqual(subject, reference);
});

void test('v2 auth: a client certificate CN (leaf or issuer) is the user with --client-cert-auth (etcd vs subject)', async (t) => {
  const reference = await certificateRun('etcd');
  t.diagnostic(`etcd:\n${reference.join('\n')}`);
  const subject = await certificateRun(diffSubject());
  assert.deepEqual(subject, reference);
});

void test('v2 auth: three members agree — a user, a role and enable written on one hold on the others', async (t) => {
  const kind = diffSubject();
  const members = await startCluster(kind, 3, { args: ['--enable-v2'], env: SERVER_ENV(kind) });
  t.after(() => Promise.all(members.map((m) => m.stop('SIGTERM'))));
  // Until a member knows the cluster version, /v2/auth answers 500 "not capable" (as etcd).
  for (const m of members) await settled(m.clientUrl, async (u) => (await fetch(u)).text());
  const [a, b, c] = members.map(plainSender) as [Send, Send, Send];
  assert.match(await a(put('/v2/auth/users/root', '{"user":"root","password":"rootpw"}')), / → 201 /);
  assert.match(await b(put('/v2/auth/roles/guest', '{"role":"guest","permissions":{"kv":{"read":["/*"],"write":[]}}}')), / → 201 /);
  assert.match(await c(put('/v2/auth/enable', '')), / → 200 /);
  for (const send of [a, b, c]) {
    await eventually('auth enabled on every member', async () => ((await send(get('/v2/auth/enable'))).endsWith('{"enabled":true}\n') ? true : undefined));
    assert.match(await send(put('/v2/keys/x', 'value=1')), / → 401 .*"errorCode":110/);
    assert.match(await send(put('/v2/keys/x', 'value=1', ROOT)), / → 20[01] /);
    assert.match(await send(get('/v2/auth/users', 'root:wrong')), / → 401 .*Insufficient credentials/);
  }
});
