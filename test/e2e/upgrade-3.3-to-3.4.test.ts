/**
 * Rolling upgrade 3.3 → 3.4 (SPEC "gRPC gateway", "Health response"): the JSON gateway keeps
 * `/v3beta`, stops redirecting `/v3alpha` (removed: 404) and also answers `/v3`; `/health` is
 * `{"health":"true"}` on both lines; Cluster.MemberPromote (a 3.4 method) is not capable until the
 * cluster runs 3.4, then it answers for a voter that only a learner can be promoted.
 * The flow and its checks are described in test/support/rolling-upgrade.ts.
 */
import { credentials, Metadata } from '@grpc/grpc-js';
import { ClusterClient } from '../../proto/gen/etcd/rpc.js';
import { rollingUpgradeSuite } from '../support/rolling-upgrade.js';
import { grpcOutcome, memberIds } from '../support/upgrade-steps.js';
import type { Member } from '../support/processes.js';

/** Cluster.MemberPromote of `m` itself (a voter) through `m`. */
async function promoteVoter(m: Member): Promise<string> {
  const id = (await memberIds(m)).get(m.name);
  if (id === undefined) throw new Error(`${m.name} is not in its own member list`);
  const client = new ClusterClient(m.endpoint, credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  try {
    return await grpcOutcome((done) => client.memberPromote({ ID: BigInt(`0x${id}`) }, new Metadata(), { deadline: Date.now() + 5_000 }, done));
  } finally {
    client.close();
  }
}

rollingUpgradeSuite({
  from: '3.3.0',
  to: '3.4.0',
  gatewayBefore: { '/v3beta': 'serves', '/v3alpha': { redirectTo: '/v3beta' } },
  gatewayAfter: { '/v3beta': 'serves', '/v3': 'serves', '/v3alpha': 'absent' },
  healthBody: { from: '{"health":"true"}', to: '{"health":"true"}' },
  newRpc: { name: 'Cluster.MemberPromote of a voter', call: (m) => promoteVoter(m), after: /etcdserver: can only promote a learner member$/ },
});
