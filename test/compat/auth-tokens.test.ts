/**
 * Auth tokens as a gRPC client sees them, kvstore against the real etcd 3.4 side by side: the
 * same calls give the same outcomes (gRPC code + message).
 * - simple tokens (`--auth-token-ttl=2`): the token works, a forged one is refused, an unused
 *   token expires after its TTL, a token survives unrelated auth changes, a password change
 *   and a user deletion void the user's tokens;
 * - jwt tokens (RS256 keys): the token works on its own, any auth change makes it stale
 *   (`revision of auth store is old`), a new Authenticate gives a fresh one.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { credentials, Metadata } from '@grpc/grpc-js';
import { AuthClient, KVClient, type RangeRequest } from '../../proto/gen/etcd/rpc.js';
import { etcdctl, etcdVersion, makeTempDir, startMember, type Member, type ServerKind } from '../support/processes.js';
import { grpcOutcome } from '../support/upgrade-steps.js';

const TTL_S = 2;

function rangeReq(key: string): RangeRequest {
  return {
    key: Buffer.from(key), rangeEnd: Buffer.alloc(0), limit: 0n, revision: 0n, sortOrder: 0, sortTarget: 0, serializable: false,
    keysOnly: false, countOnly: false, minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
  };
}

class Client {
  readonly auth: AuthClient;
  readonly kv: KVClient;
  constructor(endpoint: string) {
    const opts = { 'grpc.use_local_subchannel_pool': 1 };
    this.auth = new AuthClient(endpoint, credentials.createInsecure(), opts);
    this.kv = new KVClient(endpoint, credentials.createInsecure(), opts);
  }
  authenticate(name: string, password: string): Promise<{ outcome: string; token: string }> {
    return new Promise((resolve) =>
      this.auth.authenticate({ name, password }, new Metadata(), { deadline: Date.now() + 10_000 }, (err, res) =>
        resolve(err ? { outcome: `${err.code} ${err.details}`, token: '' } : { outcome: 'ok', token: res.token }),
      ),
    );
  }
  get(key: string, token?: string): Promise<string> {
    const md = new Metadata();
    if (token !== undefined) md.set('token', token);
    return grpcOutcome((done) => this.kv.range(rangeReq(key), md, { deadline: Date.now() + 10_000 }, done));
  }
  close(): void {
    this.auth.close();
    this.kv.close();
  }
}

async function ctl(m: Member, ...args: string[]): Promise<void> {
  const r = await etcdctl(m.endpoint, args, { input: args.includes('--interactive=false') ? 'newpw\n' : undefined });
  assert.equal(r.code, 0, `etcdctl ${args.join(' ')}: ${r.stderr}`);
}

async function setUp(m: Member): Promise<void> {
  await ctl(m, 'user', 'add', 'root', '--new-user-password=rootpw');
  await ctl(m, 'user', 'grant-role', 'root', 'root');
  await ctl(m, 'user', 'add', 'alice', '--new-user-password=alicepw');
  await ctl(m, 'role', 'add', 'r');
  await ctl(m, 'role', 'grant-permission', 'r', 'read', 'k');
  await ctl(m, 'user', 'grant-role', 'alice', 'r');
  await ctl(m, 'auth', 'enable');
}

const ROOT = '--user=root:rootpw';

/** The simple-token story; returns its outcomes line by line. */
async function simpleStory(m: Member): Promise<string[]> {
  const c = new Client(m.endpoint);
  const out: string[] = [];
  try {
    await setUp(m);
    const a = await c.authenticate('alice', 'alicepw');
    out.push(`authenticate ${a.outcome} ${/^[A-Za-z]{16}\.\d+$/.test(a.token) ? 'simple-token' : a.token}`);
    out.push(`wrong password ${(await c.authenticate('alice', 'nope')).outcome}`);
    out.push(`nobody ${(await c.authenticate('nobody', 'x')).outcome}`);
    out.push(`get with token ${await c.get('k', a.token)}`);
    out.push(`get without token ${await c.get('k')}`);
    out.push(`get forged ${await c.get('k', 'abcdefghijklmnop.1')}`);
    out.push(`get denied ${await c.get('other', a.token)}`);
    await ctl(m, 'role', 'add', 'unrelated', ROOT);
    out.push(`after an auth change ${await c.get('k', a.token)}`);
    // Unused for more than its TTL (the reference sweeps once a second): the token is gone.
    await sleep((TTL_S + 2) * 1000);
    out.push(`after the ttl ${await c.get('k', a.token)}`);
    const b = await c.authenticate('alice', 'alicepw');
    out.push(`second token ${await c.get('k', b.token)}`);
    await ctl(m, 'user', 'passwd', 'alice', '--interactive=false', ROOT);
    out.push(`after password change ${await c.get('k', b.token)}`);
    const d = await c.authenticate('alice', 'newpw');
    out.push(`new password ${d.outcome} ${await c.get('k', d.token)}`);
    await ctl(m, 'user', 'delete', 'alice', ROOT);
    out.push(`after user delete ${await c.get('k', d.token)}`);
    out.push(`deleted user ${(await c.authenticate('alice', 'newpw')).outcome}`);
  } finally {
    c.close();
  }
  return out;
}

/** The jwt story. */
async function jwtStory(m: Member): Promise<string[]> {
  const c = new Client(m.endpoint);
  const out: string[] = [];
  try {
    await setUp(m);
    const a = await c.authenticate('alice', 'alicepw');
    out.push(`authenticate ${a.outcome} ${a.token.split('.').length === 3 ? 'jwt' : a.token}`);
    out.push(`get with token ${await c.get('k', a.token)}`);
    out.push(`get tampered ${await c.get('k', `${a.token.slice(0, -4)}AAAA`)}`);
    await ctl(m, 'role', 'add', 'unrelated', ROOT);
    out.push(`after an auth change ${await c.get('k', a.token)}`);
    const b = await c.authenticate('alice', 'alicepw');
    out.push(`fresh token ${await c.get('k', b.token)}`);
  } finally {
    c.close();
  }
  return out;
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

void describe(`auth tokens over gRPC: kvstore vs etcd ${etcdVersion()}`, () => {
  void it('simple tokens: validity, expiry after --auth-token-ttl, invalidation', async () => {
    const args = [`--auth-token-ttl=${TTL_S}`];
    const [ref, sub] = await Promise.all([side('etcd', args, simpleStory), side('kvstore', args, simpleStory)]);
    assert.deepEqual(sub, ref);
    assert.match(ref.join('\n'), /after the ttl 16 etcdserver: invalid auth token/);
  });

  void it('jwt tokens: self-contained, stale after an auth change', async () => {
    const args = jwtFlags();
    const [ref, sub] = await Promise.all([side('etcd', args, jwtStory), side('kvstore', args, jwtStory)]);
    assert.deepEqual(sub, ref);
    assert.match(ref.join('\n'), /revision of auth store is old/);
  });
});
