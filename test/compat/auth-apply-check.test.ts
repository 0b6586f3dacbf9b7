/**
 * Permissions checked again when a write applies, kvstore against the real etcd 3.4 side by
 * side (same calls, same outcomes):
 * - simple tokens: a user's role loses its permission after the token was issued; the next
 *   write, read and txn with that token are refused (`permission denied`), the token itself
 *   stays valid; the auth revision gauge (`*_debugging_auth_revision`) follows every change;
 * - jwt tokens: etcdctl (clientv3) authenticates, an auth change then makes its token stale,
 *   and its write txn and read txn get `revision of auth store is old`; clientv3 refreshes
 *   the token and retries, so both commands succeed.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { etcdctl, etcdVersion, makeTempDir, spawnEtcdctl, startMember, type Member, type ServerKind } from '../support/processes.js';

const OPTS = { 'grpc.use_local_subchannel_pool': 1 };
const ROOT = '--user=root:rootpw';
const b64 = (s: string): string => Buffer.from(s).toString('base64');

async function ctl(m: Member, ...args: string[]): Promise<void> {
  const r = await etcdctl(m.endpoint, args);
  assert.equal(r.code, 0, `etcdctl ${args.join(' ')}: ${r.stderr}`);
}

async function setUp(m: Member): Promise<void> {
  await ctl(m, 'user', 'add', 'root', '--new-user-password=rootpw');
  await ctl(m, 'user', 'grant-role', 'root', 'root');
  await ctl(m, 'user', 'add', 'alice', '--new-user-password=alicepw');
  await ctl(m, 'role', 'add', 'w');
  await ctl(m, 'role', 'grant-permission', 'w', 'readwrite', 'a', 'b');
  await ctl(m, 'role', 'grant-permission', 'w', 'read', 'r');
  await ctl(m, 'user', 'grant-role', 'alice', 'w');
  await ctl(m, 'auth', 'enable');
}

function call(fn: (md: Metadata, o: { deadline: number }, done: (e: ServiceError | null) => void) => void, token: string): Promise<string> {
  const md = new Metadata();
  md.set('token', token);
  return new Promise((resolve) => fn(md, { deadline: Date.now() + 10_000 }, (e) => resolve(e ? `${e.code} ${e.details}` : 'ok')));
}

async function simpleStory(m: Member): Promise<string[]> {
  const kv = new pb.KVClient(m.endpoint, credentials.createInsecure(), OPTS);
  const auth = new pb.AuthClient(m.endpoint, credentials.createInsecure(), OPTS);
  const out: string[] = [];
  try {
    await setUp(m);
    const token = await new Promise<string>((resolve, reject) =>
      auth.authenticate({ name: 'alice', password: 'alicepw' }, (e, r) => (e ? reject(e) : resolve(r.token))),
    );
    const put = (key: string) => call((md, o, d) => kv.put(pb.PutRequest.fromJSON({ key: b64(key), value: b64('v') }), md, o, d), token);
    const get = (key: string) => call((md, o, d) => kv.range(pb.RangeRequest.fromJSON({ key: b64(key) }), md, o, d), token);
    const txn = () =>
      call((md, o, d) => kv.txn(pb.TxnRequest.fromJSON({ compare: [{ key: b64('r'), target: 'VERSION', version: '0' }], success: [{ request_put: { key: b64('a2'), value: b64('v') } }] }), md, o, d), token);
    out.push(`put before ${await put('a1')}`);
    out.push(`txn before ${await txn()}`);
    await ctl(m, 'role', 'revoke-permission', 'w', 'a', 'b', ROOT);
    out.push(`put after revoke ${await put('a1')}`);
    out.push(`get after revoke ${await get('a1')}`);
    out.push(`txn after revoke ${await txn()}`);
    out.push(`read still granted ${await get('r')}`);
    await ctl(m, 'user', 'revoke-role', 'alice', 'w', ROOT);
    out.push(`get after role revoke ${await get('r')}`);
    out.push(`auth revision metric ${await authRevisionMetric(m)}`);
  } finally {
    kv.close();
    auth.close();
  }
  return out;
}

/** The value of `<prefix>_debugging_auth_revision` on the member's /metrics. */
async function authRevisionMetric(m: Member): Promise<string> {
  const text = await (await fetch(`${m.clientUrl}/metrics`)).text();
  return /^(?:etcd|kvstore)_debugging_auth_revision (\d+)$/m.exec(text)?.[1] ?? 'absent';
}

/** etcdctl `txn -i` as alice: the client authenticates, then root changes auth, then the txn is sent. */
async function staleTxn(m: Member, ops: string): Promise<string> {
  const p = spawnEtcdctl(m.endpoint, ['--user=alice:alicepw', 'txn', '-i', '-w', 'json'], { stdin: true });
  await p.waitFor('compares:');
  await ctl(m, 'role', 'add', `unrelated${Math.random().toString(36).slice(2, 8)}`, ROOT);
  p.write(`value("a1") = "v1"\n\n${ops}\n\n\n`);
  p.endInput();
  const r = await p.result();
  const retried = /revision of auth store is old/.test(r.stderr) ? 'retried after AuthOldRevision' : 'no retry';
  const json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { succeeded?: boolean };
  return `exit ${r.code} ${retried} succeeded=${json.succeeded === true}`;
}

async function jwtStory(m: Member): Promise<string[]> {
  await setUp(m);
  await ctl(m, '--user=alice:alicepw', 'put', 'a1', 'v1');
  return [`write txn ${await staleTxn(m, 'put a2 v2')}`, `read txn ${await staleTxn(m, 'get a1')}`];
}

function jwtFlags(): string[] {
  const dir = makeTempDir('jwt');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const priv = join(dir, 'priv.pem');
  const pub = join(dir, 'pub.pem');
  writeFileSync(priv, privateKey.export({ type: 'pkcs1', format: 'pem' }));
  writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
  return [`--auth-token=jwt,pub-key=${pub},priv-key=${priv},sign-method=RS256`];
}

async function side(kind: ServerKind, args: string[], story: (m: Member) => Promise<string[]>): Promise<string[]> {
  const env: Record<string, string> = kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {};
  const m = await startMember(kind, { args, env });
  try {
    return await story(m);
  } finally {
    await m.kill9();
  }
}

void describe(`permissions re-checked at apply: kvstore vs etcd ${etcdVersion()}`, () => {
  void it('simple tokens: a permission revoked after the token was issued refuses the next write', async () => {
    const [ref, sub] = await Promise.all([side('etcd', [], simpleStory), side('kvstore', [], simpleStory)]);
    assert.deepEqual(sub, ref);
    assert.match(ref.join('\n'), /put after revoke 7 etcdserver: permission denied/);
    assert.match(ref.join('\n'), /auth revision metric 10$/);
  });

  void it('jwt tokens: etcdctl recovers from AuthOldRevision (refreshes its token and retries)', async () => {
    const args = jwtFlags();
    const [ref, sub] = await Promise.all([side('etcd', args, jwtStory), side('kvstore', args, jwtStory)]);
    assert.deepEqual(sub, ref);
    assert.deepEqual(ref, ['write txn exit 0 retried after AuthOldRevision succeeded=true', 'read txn exit 0 retried after AuthOldRevision succeeded=true']);
  });
});
