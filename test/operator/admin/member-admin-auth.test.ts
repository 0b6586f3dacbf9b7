/**
 * MemberAdmin with root credentials against a real kvstore member, before and after auth is
 * turned on: with auth off the credentials are refused by the member (`authentication is not
 * enabled`) and the calls go without a token; with auth on they go as root (a linearizable read
 * and the snapshot stream need a user / root). The auth probe never carries the token: it says
 * "on" for an admin with credentials too; an admin without them sees reads refused.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createClient } from '../../../ctl/client/index.js';
import { createMemberAdmin } from '../../../operator/controller/admin/member-admin.js';
import { makeTempDir, startCluster } from '../../support/processes.js';

const root = createMemberAdmin({ callTimeoutMs: 3000 }, { credentials: { username: 'root', password: 'r00t-pw' } });
const plain = createMemberAdmin({ callTimeoutMs: 3000 });
after(() => {
  root.close();
  plain.close();
});

void test('member admin with root credentials, auth off then on', async () => {
  const [m] = await startCluster('kvstore', 1, { env: { KVSTORE_SERVER_VERSION: '3.4.0' } });
  assert.ok(m !== undefined);
  const url = m.clientUrl;

  // Auth off: credentials cannot be used; the calls go without a token.
  assert.deepEqual(await root.authEnabled(url), { ok: true, value: false });
  assert.deepEqual(await root.linearizableRead(url), { ok: true, value: undefined });
  assert.ok((await root.status(url)).ok);

  const c = createClient({ endpoints: [url], dialTimeoutMs: 3000, commandTimeoutMs: 5000 });
  try {
    assert.ok((await c.auth.userAdd('root', 'r00t-pw')).ok);
    assert.ok((await c.auth.userGrantRole('root', 'root')).ok);
    const on = await c.auth.enable();
    assert.ok(on.ok, on.ok ? '' : on.error.message);
  } finally {
    c.close();
  }

  // Auth on: the probe (no token) says so for both; root reads, snapshots and lists members.
  assert.deepEqual(await root.authEnabled(url), { ok: true, value: true });
  assert.deepEqual(await plain.authEnabled(url), { ok: true, value: true });
  assert.deepEqual(await root.linearizableRead(url), { ok: true, value: undefined });
  const anonymous = await plain.linearizableRead(url);
  assert.equal(anonymous.ok, false, 'a read without a user is refused');
  const list = await root.memberList(url);
  assert.ok(list.ok && list.value.length === 1, list.ok ? `${list.value.length} members` : list.error);
  const dir = makeTempDir('admin-auth-snap');
  const snap = await root.snapshot(url, join(dir, 'as-root.db'));
  assert.ok(snap.ok, snap.ok ? '' : snap.error);
  const refused = await plain.snapshot(url, join(dir, 'anonymous.db'));
  assert.equal(refused.ok, false, 'the snapshot stream is for root only');
});
