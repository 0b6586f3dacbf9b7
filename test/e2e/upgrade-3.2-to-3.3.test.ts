/**
 * Rolling upgrade 3.2 → 3.3 (SPEC "Breaking changes to 3.3", "gRPC gateway", "Health response"):
 * the JSON gateway moves from `/v3alpha` to `/v3beta`, and `/v3alpha` then answers a redirect to
 * `/v3beta`; `/health` is the hand-built `{"health": "true"}` on 3.2 binaries and the typed
 * `{"health":"true"}` on 3.3 binaries; Lease.LeaseLeases (a 3.3 method) is not capable until the
 * cluster runs 3.3. The flow and its checks are described in test/support/rolling-upgrade.ts.
 */
import { credentials, Metadata } from '@grpc/grpc-js';
import { LeaseClient } from '../../proto/gen/etcd/rpc.js';
import { rollingUpgradeSuite } from '../support/rolling-upgrade.js';
import { grpcOutcome } from '../support/upgrade-steps.js';
import type { Member } from '../support/processes.js';

/** Lease.LeaseLeases through `m`. */
async function leaseLeases(m: Member): Promise<string> {
  const client = new LeaseClient(m.endpoint, credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
  try {
    return await grpcOutcome((done) => client.leaseLeases({}, new Metadata(), { deadline: Date.now() + 5_000 }, done));
  } finally {
    client.close();
  }
}

rollingUpgradeSuite({
  from: '3.2.0',
  to: '3.3.0',
  gatewayBefore: { '/v3alpha': 'serves', '/v3beta': 'absent' },
  gatewayAfter: { '/v3beta': 'serves', '/v3alpha': { redirectTo: '/v3beta' } },
  healthBody: { from: '{"health": "true"}', to: '{"health":"true"}' },
  newRpc: { name: 'Lease.LeaseLeases', call: (m) => leaseLeases(m), after: /^ok$/ },
});
