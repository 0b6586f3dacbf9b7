/**
 * Rolling upgrade 3.4 → 3.5 (SPEC "Breaking changes to 3.5", "gRPC gateway", "Health response"):
 * the JSON gateway moves from `/v3beta` (3.4 also answers `/v3`) to `/v3` only, `/v3beta` then
 * answers 404; `/health` gains `"reason"` on members running the 3.5 binary; Auth.AuthStatus (a
 * 3.5 method) is not capable until the cluster runs 3.5; the `kvstore_debugging_mvcc_*` metric
 * names disappear exactly when the cluster version becomes 3.5.
 * The flow and its checks are described in test/support/rolling-upgrade.ts.
 */
import { credentials, Metadata } from '@grpc/grpc-js';
import { AuthClient } from '../../proto/gen/etcd/rpc.js';
import { rollingUpgradeSuite } from '../support/rolling-upgrade.js';
import { grpcOutcome } from '../support/upgrade-steps.js';
import type { Member } from '../support/processes.js';

const DEBUGGING_NAMES = ['put_total', 'delete_total', 'txn_total', 'range_total', 'db_total_size_in_bytes'].map((n) => `kvstore_debugging_mvcc_${n}`);
const PROMOTED_NAMES = DEBUGGING_NAMES.map((n) => n.replace('kvstore_debugging_mvcc_', 'kvstore_mvcc_'));

/** Auth.AuthStatus through `m`. */
async function authStatus(m: Member): Promise<string> {
  const client = new AuthClient(m.endpoint, credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  try {
    return await grpcOutcome((done) => client.authStatus({}, new Metadata(), { deadline: Date.now() + 5_000 }, done));
  } finally {
    client.close();
  }
}

rollingUpgradeSuite({
  from: '3.4.0',
  to: '3.5.0',
  gatewayBefore: { '/v3beta': 'serves', '/v3': 'serves', '/v3alpha': 'absent' },
  gatewayAfter: { '/v3': 'serves', '/v3beta': 'absent', '/v3alpha': 'absent' },
  healthBody: { from: '{"health":"true"}', to: '{"health":"true","reason":""}' },
  // SPEC "Metric renames": the debugging_mvcc names go when the cluster version reaches 3.5.
  metrics: {
    before: { present: [...DEBUGGING_NAMES, ...PROMOTED_NAMES], absent: [] },
    after: { present: PROMOTED_NAMES, absent: DEBUGGING_NAMES },
  },
  // AuthStatus is refused as not capable until the cluster runs 3.5, then answered.
  newRpc: { name: 'Auth.AuthStatus', call: (m) => authStatus(m) },
});
