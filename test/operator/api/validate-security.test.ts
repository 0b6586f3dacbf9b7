// spec.tls and spec.auth: the Secrets Kubernetes needs, none in local mode (it generates its own
// certificates), the operator's client certificate with TLS client listeners, and spec.tls fixed
// after creation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../../operator/api/defaults.js';
import { validateCluster, validateClusterUpdate, type Target } from '../../../operator/api/validate.js';
import type { KvstoreClusterInput } from '../../../operator/api/types.js';
import { cluster } from './support.js';

const FULL_TLS = { client: { secretName: 'kv-client-tls' }, peer: { secretName: 'kv-peer-tls' }, operator: { secretName: 'kv-operator-tls' } };

/** [case, target, spec patch, expected error paths (sorted)]. */
const CASES: readonly (readonly [string, Target, Record<string, unknown>, readonly string[]])[] = [
  ['all three Secrets', 'kubernetes', { tls: FULL_TLS }, []],
  ['peer TLS only', 'kubernetes', { tls: { peer: { secretName: 'kv-peer-tls' } } }, []],
  ['client TLS without the operator certificate', 'kubernetes', { tls: { client: { secretName: 'a' } } }, ['spec.tls.operator.secretName']],
  ['a listener without its Secret', 'kubernetes', { tls: { peer: {} } }, ['spec.tls.peer.secretName']],
  ['operator certificate without client TLS', 'kubernetes', { tls: { peer: { secretName: 'p' }, operator: { secretName: 'o' } } }, ['spec.tls.operator']],
  ['a Secret name that is not one', 'kubernetes', { tls: { peer: { secretName: 'Peer_TLS' } } }, ['spec.tls.peer.secretName']],
  ['an empty Secret name', 'kubernetes', { tls: { peer: { secretName: '' } } }, ['spec.tls.peer.secretName']],
  ['an unknown tls field', 'kubernetes', { tls: { server: {} } }, ['spec.tls.server']],
  ['auth Secret', 'kubernetes', { auth: { secretName: 'kv-root' } }, []],
  ['auth without its Secret', 'kubernetes', { auth: {} }, ['spec.auth.secretName']],
  ['local: TLS without Secrets', 'local', { tls: { client: {}, peer: {}, operator: {} } }, []],
  ['local: a Secret name', 'local', { tls: { client: { secretName: 'x' }, operator: {} } }, ['spec.tls.client.secretName']],
  ['local: auth Secret file name', 'local', { auth: { secretName: 'root-credentials' } }, []],
];

for (const [name, target, patch, paths] of CASES) {
  void test(`security spec (${target}): ${name}`, () => {
    const errors = validateCluster(cluster({ version: '3.4.0', ...patch }), { target });
    assert.deepEqual(errors.map((e) => e.path).sort(), [...paths].sort(), JSON.stringify(errors));
  });
}

void test('update: spec.tls may not change, be added or be removed; spec.auth may', () => {
  const previous = withDefaults(cluster({ version: '3.4.0', tls: FULL_TLS }) as unknown as KvstoreClusterInput);
  assert.deepEqual(validateClusterUpdate(previous, cluster({ version: '3.5.0', tls: FULL_TLS, auth: { secretName: 'root' } })), []);
  const changed = { ...FULL_TLS, peer: { secretName: 'other' } };
  assert.deepEqual(validateClusterUpdate(previous, cluster({ version: '3.4.0', tls: changed })).map((e) => e.path), ['spec.tls']);
  assert.deepEqual(validateClusterUpdate(previous, cluster({ version: '3.4.0' })).map((e) => e.path), ['spec.tls']);
  const plain = withDefaults(cluster({ version: '3.4.0' }) as unknown as KvstoreClusterInput);
  assert.deepEqual(validateClusterUpdate(plain, cluster({ version: '3.4.0', tls: FULL_TLS })).map((e) => e.path), ['spec.tls']);
});
