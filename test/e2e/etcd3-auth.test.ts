/**
 * The `etcd3` npm client's auth calls against a spawned kvstore AND a spawned real etcd 3.4
 * (the same body on both): roles with permissions, users with roles, password auth, what a
 * user without permission is refused (a put, a watch), wrong passwords, and disabling auth.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { Etcd3, EtcdAuthenticationFailedError, EtcdPermissionDeniedError, EtcdRoleExistsError, EtcdUserNotFoundError, Range } from 'etcd3';
import { serverKinds, startMember } from '../support/members.js';
import type { Member } from '../support/server-process.js';

for (const kind of serverKinds()) {
  void describe(`etcd3 client auth against ${kind}`, () => {
    let member: Member;
    let admin: Etcd3;
    const clients: Etcd3[] = [];
    const as = (username: string, password: string): Etcd3 => {
      const c = new Etcd3({ hosts: member.clientUrl, auth: { username, password } });
      clients.push(c);
      return c;
    };

    before(async () => {
      member = await startMember(kind);
      admin = new Etcd3({ hosts: member.clientUrl });
    });

    after(async () => {
      for (const c of clients) c.close();
      admin?.close();
      await member?.stop();
    });

    void it('creates roles with permissions and users with roles, and lists them', async () => {
      await admin.user('root').create('rootpw');
      await admin.user('root').addRole('root');
      const reader = await admin.role('reader').create();
      await reader.grant({ permission: 'Read', range: Range.prefix('public/') });
      await reader.grant({ permission: 'Readwrite', key: 'mine' });
      await assert.rejects(admin.role('reader').create(), EtcdRoleExistsError);
      await admin.user('alice').create('alicepw');
      await admin.user('alice').addRole('reader');
      assert.deepEqual((await admin.getRoles()).map((r) => r.name), ['reader']);
      assert.deepEqual((await admin.getUsers()).map((u) => u.name).sort(), ['alice', 'root']);
      assert.deepEqual((await admin.user('alice').roles()).map((r) => r.name), ['reader']);
      const perms = await reader.permissions();
      assert.deepEqual(
        perms.map((p) => [p.permission, p.range.start.toString(), p.range.end.toString()]),
        [['Readwrite', 'mine', ''], ['Read', 'public/', 'public0']],
      );
      await assert.rejects(admin.user('nobody').roles(), EtcdUserNotFoundError);
      await admin.put('public/a').value('1');
      await admin.put('secret').value('s');
    });

    void it('with auth enabled, a password client reads what it may and is refused the rest', async () => {
      await admin.auth.authEnable();
      const root = as('root', 'rootpw');
      await root.put('public/b').value('2');
      const alice = as('alice', 'alicepw');
      assert.deepEqual(await alice.getAll().prefix('public/').strings(), { 'public/a': '1', 'public/b': '2' });
      await alice.put('mine').value('ok');
      assert.equal(await alice.get('mine').string(), 'ok');
      await assert.rejects(alice.put('public/c').value('x').exec(), EtcdPermissionDeniedError);
      await assert.rejects(alice.get('secret').string(), EtcdPermissionDeniedError);
      await assert.rejects(as('alice', 'wrong').get('public/a').string(), EtcdAuthenticationFailedError);
    });

    void it('a watch on a key the user may not read is refused; one on a readable prefix sees puts', async () => {
      const watcher = as('alice', 'alicepw').watch().key('secret').watcher();
      const [error] = (await once(watcher, 'error')) as [Error];
      assert.ok(error instanceof EtcdPermissionDeniedError, `${error.constructor.name}: ${error.message}`);
      // A fresh client: the etcd3 client does not create further watchers on a stream after a refused one.
      const allowed = await as('alice', 'alicepw').watch().prefix('public/').create();
      const seen = once(allowed, 'put');
      await as('root', 'rootpw').put('public/w').value('3');
      const [kv] = (await seen) as [{ key: Buffer }];
      assert.equal(kv.key.toString(), 'public/w');
      await allowed.cancel();
    });

    void it('revoking the role takes the permission away; disabling auth opens everything', async () => {
      const root = as('root', 'rootpw');
      await root.user('alice').removeRole('reader');
      await assert.rejects(as('alice', 'alicepw').get('public/a').string(), EtcdPermissionDeniedError);
      await root.auth.authDisable();
      assert.equal(await admin.get('secret').string(), 's');
    });
  });
}
