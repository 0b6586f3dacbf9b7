// The one table from API answers and transport failures to KubeError kinds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { errorFromResponse, errorFromThrown, kindForStatus } from '../../../operator/runtime/kube/errors.js';
import { ClientNodeKubeClient } from '../../../operator/runtime/kube/client-node-client.js';

const TABLE: ReadonlyArray<readonly [number, string, string]> = [
  [404, 'NotFound', 'NotFound'],
  [409, 'AlreadyExists', 'AlreadyExists'],
  [409, 'Conflict', 'Conflict'],
  [409, '', 'Conflict'],
  [410, 'Expired', 'Gone'],
  [400, 'BadRequest', 'Invalid'],
  [422, 'Invalid', 'Invalid'],
  [401, 'Unauthorized', 'Forbidden'],
  [403, 'Forbidden', 'Forbidden'],
  [429, 'TooManyRequests', 'Unavailable'],
  [500, 'InternalError', 'Unavailable'],
  [503, 'ServiceUnavailable', 'Unavailable'],
  [418, '', 'Unexpected'],
];

for (const [status, reason, kind] of TABLE) {
  void test(`HTTP ${status} ${reason || '(no reason)'} → ${kind}`, () => {
    assert.equal(kindForStatus(status, reason), kind);
  });
}

void test('the Status message is kept, from JSON text or a parsed body', () => {
  const body = { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'AlreadyExists', code: 409, message: 'configmaps "x" already exists' };
  assert.deepEqual(errorFromResponse(409, JSON.stringify(body)), { kind: 'AlreadyExists', status: 409, message: 'configmaps "x" already exists', cause: undefined });
  assert.equal(errorFromResponse(409, body).kind, 'AlreadyExists');
  assert.equal(errorFromResponse(502, 'bad gateway').message, 'bad gateway');
  assert.equal(errorFromResponse(500, undefined).message, 'HTTP 500');
});

void test('thrown errors: with an HTTP code (ApiException, Watch) or without (transport)', () => {
  assert.equal(errorFromThrown({ code: 404, body: '{"reason":"NotFound","message":"nope"}' }).kind, 'NotFound');
  assert.equal(errorFromThrown(Object.assign(new Error('Gone'), { statusCode: 410 })).kind, 'Gone');
  const refused = errorFromThrown(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }));
  assert.equal(refused.kind, 'Unreachable');
  assert.equal(refused.status, 0);
  assert.match(refused.message, /ECONNREFUSED/);
});

void test('a client-node call to a server that is not there is Unreachable, not a throw', async () => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'http://127.0.0.1:1', skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const r = await new ClientNodeKubeClient(kc).get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', name: 'x' });
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.error.kind, 'Unreachable');
});
