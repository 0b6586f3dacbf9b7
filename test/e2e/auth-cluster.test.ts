/**
 * Auth on a 3-member kvstore cluster: users and roles made through one member hold on all; a
 * simple token obtained from one member works at once on the others (every member records it
 * when it applies the Authenticate entry; a member that has not applied it yet catches up
 * first); a password change through another member voids it everywhere.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { credentials, Metadata } from '@grpc/grpc-js';
import { AuthClient, KVClient, type RangeRequest } from '../../proto/gen/etcd/rpc.js';
import { ctlFor, startCluster, type Member } from '../support/processes.js';
import { assertClusterHealthy, grpcOutcome, waitUntil } from '../support/upgrade-steps.js';

const rangeReq = (key: string): RangeRequest => ({
  key: Buffer.from(key), rangeEnd: Buffer.alloc(0), limit: 0n, revision: 0n, sortOrder: 0, sortTarget: 0, serializable: false,
  keysOnly: false, countOnly: false, minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
});

function authenticate(m: Member, name: string, password: string): Promise<string> {
  const c = new AuthClient(m.endpoint, credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  return new Promise<string>((resolve, reject) =>
    c.authenticate({ name, password }, new Metadata(), { deadline: Date.now() + 10_000 }, (err, res) => (err ? reject(err) : resolve(res.token))),
  ).finally(() => c.close());
}

async function get(m: Member, key: string, token: string): Promise<string> {
  const kv = new KVClient(m.endpoint, credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  const md = new Metadata();
  md.set('token', token);
  try {
    return await grpcOutcome((done) => kv.range(rangeReq(key), md, { deadline: Date.now() + 10_000 }, done));
  } finally {
    kv.close();
  }
}

void describe('auth on a 3-member kvstore cluster', () => {
  let members: Member[] = [];

  before(async () => {
    members = await startCluster('kvstore', 3);
    await waitUntil('the cluster is healthy', () => assertClusterHealthy(members));
    const ctl = ctlFor(members[1]!);
    await ctl.ok(['user', 'add', 'root', '--new-user-password=rootpw']);
    await ctl.ok(['user', 'grant-role', 'root', 'root']);
    await ctl.ok(['user', 'add', 'alice', '--new-user-password=alicepw']);
    await ctl.ok(['role', 'add', 'r']);
    await ctl.ok(['role', 'grant-permission', 'r', 'read', 'k']);
    await ctl.ok(['user', 'grant-role', 'alice', 'r']);
    await ctl.ok(['auth', 'enable']);
  });

  after(async () => {
    await Promise.all(members.map((m) => m.kill9()));
  });

  void it('a token from one member works on every member; a password change voids it everywhere', async () => {
    const token = await authenticate(members[0]!, 'alice', 'alicepw');
    for (const m of members) assert.equal(await get(m, 'k', token), 'ok', m.name);
    for (const m of members) assert.equal(await get(m, 'other', token), '7 etcdserver: permission denied', m.name);
    await ctlFor(members[2]!).ok(['user', 'passwd', 'alice', '--interactive=false', '--user=root:rootpw'], { input: 'newpw\n' });
    for (const m of members) assert.equal(await get(m, 'k', token), '16 etcdserver: invalid auth token', m.name);
    assert.match(await ctlFor(members[1]!).ok(['user', 'list', '--user=root:rootpw']), /^alice\nroot\n$/);
  });
});
