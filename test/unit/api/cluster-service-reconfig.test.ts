// The Cluster service with the strict reconfiguration check: refusals as domain errors with the
// reference server's warning, nothing proposed; `strictReconfigCheck: false` skips the check;
// without a transport view only the started-members check applies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { createClusterService } from '../../../server/api/service/cluster-service.js';
import type { ServiceContext } from '../../../server/api/service/context.js';
import { ok } from '../../../server/errors/domain-error.js';
import type { Member } from '../../../server/member/member.js';
import { Membership } from '../../../server/membership/membership.js';

const NOW = 1_000_000;
const voter = (id: bigint) => ({ id, name: `m${id}`, peerURLs: [`http://10.0.0.${id}:2380`], clientURLs: [`http://10.0.0.${id}:2379`], isLearner: false });

function setup(opts: { activeSince?: Record<string, number | undefined>; strict?: boolean; transport?: boolean }) {
  const proposed: bigint[] = [];
  const warnings: Array<{ msg: string; fields: Readonly<Record<string, unknown>> }> = [];
  const member = {
    memberId: 1n,
    header: () => ({ clusterId: 9n, memberId: 1n, revision: 0n, raftTerm: 2n }),
    proposeConfChange: (_type: unknown, id: bigint) => {
      proposed.push(id);
      return Promise.resolve(ok(undefined));
    },
  } as unknown as Member;
  const ctx = {
    member,
    membership: Membership.restore([voter(1n), voter(2n), voter(3n)], []),
    clusterToken: 'tok',
    now: () => NOW,
    log: { info: () => undefined, warn: (fields: Readonly<Record<string, unknown>>, msg: string) => warnings.push({ msg, fields }) },
    ...(opts.strict === undefined ? {} : { strictReconfigCheck: opts.strict }),
    ...(opts.transport === false ? {} : { peerActiveSince: (id: bigint) => opts.activeSince?.[id.toString()] }),
  } as unknown as ServiceContext;
  return { svc: createClusterService(ctx), proposed, warnings };
}

const LONG_AGO = NOW - 60_000;
const addReq = (isLearner = false): pb.MemberAddRequest => ({ peerURLs: ['http://10.0.0.9:2380'], isLearner });

void test('member 3 down: add refused as Unhealthy with the reference warning, nothing proposed', async () => {
  const { svc, proposed, warnings } = setup({ activeSince: { '2': LONG_AGO } });
  const r = await svc.memberAdd(addReq());
  assert.deepEqual(r, { ok: false, error: { kind: 'Unhealthy' } });
  assert.deepEqual(proposed, []);
  assert.equal(warnings[0]?.msg, 'rejecting member add request; local member has not been connected to all peers, reconfigure breaks active quorum');
  assert.equal(warnings[0]?.fields['local-member-id'], '1');
  assert.match(String(warnings[0]?.fields['requested-member-add']), /^\{ID:[0-9a-f]+ RaftAttributes:\{PeerURLs:\[http:\/\/10\.0\.0\.9:2380\] IsLearner:false\} Attributes:\{Name: ClientURLs:\[\]\}\}$/);
  assert.deepEqual((await svc.memberAdd(addReq(true))).ok, false, 'a learner add is checked too');
});

void test('member 3 down: removing member 2 is refused, removing member 3 is proposed', async () => {
  const { svc, proposed, warnings } = setup({ activeSince: { '2': LONG_AGO } });
  assert.deepEqual(await svc.memberRemove({ ID: 2n }), { ok: false, error: { kind: 'Unhealthy' } });
  assert.equal(warnings[0]?.fields['active-peers'], 2);
  assert.equal(warnings[0]?.fields['requested-member-remove'], '2');
  const r = await svc.memberRemove({ ID: 3n });
  assert.equal(r.ok, true);
  assert.deepEqual(proposed, [3n]);
});

void test('all peers connected for long: add is proposed', async () => {
  const { svc, proposed } = setup({ activeSince: { '2': LONG_AGO, '3': LONG_AGO } });
  assert.equal((await svc.memberAdd(addReq())).ok, true);
  assert.equal(proposed.length, 1);
});

void test('strictReconfigCheck false: add and remove are proposed with peers down', async () => {
  const { svc, proposed, warnings } = setup({ activeSince: {}, strict: false });
  assert.equal((await svc.memberAdd(addReq())).ok, true);
  assert.equal((await svc.memberRemove({ ID: 2n })).ok, true);
  assert.equal(proposed.length, 2);
  assert.deepEqual(warnings, []);
});

void test('no transport view: connectivity is not checked', async () => {
  const { svc, proposed } = setup({ transport: false });
  assert.equal((await svc.memberAdd(addReq())).ok, true);
  assert.equal(proposed.length, 1);
});
