// The operator's MemberAccess from Secrets: cert-manager's layout (base64 `data`: tls.crt,
// tls.key, ca.crt), stringData, root credentials; each missing Secret or key named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../../operator/api/defaults.js';
import type { KvstoreCluster, KvstoreClusterInput, KvstoreClusterSpecInput } from '../../../operator/api/types.js';
import { accessFromSecrets, type SecretData } from '../../../operator/controller/access/secret-data.js';
import { portFail, portOk } from '../../../operator/controller/ports.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

const SECRETS: Readonly<Record<string, SecretData>> = {
  'demo-client-tls': { data: { 'tls.crt': b64('member cert'), 'tls.key': b64('member key'), 'ca.crt': b64('client CA') } },
  'demo-operator-tls': { data: { 'tls.crt': b64('operator cert'), 'tls.key': b64('operator key'), 'ca.crt': b64('client CA') } },
  'demo-root': { stringData: { username: 'root', password: 's3cret' } },
  'no-ca': { data: { 'tls.crt': b64('x'), 'tls.key': b64('y') } },
  'no-password': { data: { username: b64('root') } },
};

const read = (name: string) => Promise.resolve(portOk(SECRETS[name]));

function cluster(spec: Partial<KvstoreClusterSpecInput>): KvstoreCluster {
  return withDefaults({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace: 'ns' }, spec: { version: '3.4.27', ...spec } } as KvstoreClusterInput);
}

const TLS = { client: { secretName: 'demo-client-tls' }, peer: { secretName: 'demo-peer-tls' }, operator: { secretName: 'demo-operator-tls' } };

void test('no spec.tls, no spec.auth: no access material, no Secret read', async () => {
  const r = await accessFromSecrets(cluster({}), () => Promise.reject(new Error('read nothing')));
  assert.deepEqual(r, portOk({}));
});

void test("client TLS: the operator's certificate and key, the CA of the client listener's Secret", async () => {
  const r = await accessFromSecrets(cluster({ tls: TLS }), read);
  assert.ok(r.ok);
  assert.equal(r.value.tls?.cert.toString(), 'operator cert');
  assert.equal(r.value.tls?.key.toString(), 'operator key');
  assert.equal(r.value.tls?.ca.toString(), 'client CA');
  assert.equal(r.value.credentials, undefined);
});

void test('peer TLS only: the operator talks plain to the client listener', async () => {
  assert.deepEqual(await accessFromSecrets(cluster({ tls: { peer: TLS.peer } }), read), portOk({}));
});

void test('auth: the root credentials, beside the TLS material', async () => {
  const r = await accessFromSecrets(cluster({ tls: TLS, auth: { secretName: 'demo-root' } }), read);
  assert.ok(r.ok);
  assert.deepEqual(r.value.credentials, { username: 'root', password: 's3cret' });
  assert.equal(r.value.tls?.cert.toString(), 'operator cert');
});

const FAILURES: readonly (readonly [string, Partial<KvstoreClusterSpecInput>, RegExp])[] = [
  ['operator Secret missing', { tls: { ...TLS, operator: { secretName: 'gone' } } }, /Secret gone \(the operator's client certificate\) not found/],
  ['client Secret without ca.crt', { tls: { ...TLS, client: { secretName: 'no-ca' } } }, /Secret no-ca \(the CA of the member certificates\) has no key ca.crt/],
  ['auth Secret without password', { auth: { secretName: 'no-password' } }, /Secret no-password \(the root credentials\) has no key password/],
];

for (const [name, spec, message] of FAILURES) {
  void test(`failure: ${name}`, async () => {
    const r = await accessFromSecrets(cluster(spec), read);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.error, message);
  });
}

void test('a Secret that cannot be read (API error) is a failure naming it', async () => {
  const r = await accessFromSecrets(cluster({ auth: { secretName: 'demo-root' } }), () => Promise.resolve(portFail('secrets "demo-root" is forbidden')));
  assert.deepEqual(r, portFail('Secret demo-root (the root credentials): secrets "demo-root" is forbidden'));
});
