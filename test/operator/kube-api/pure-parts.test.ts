// The pure parts of the test API server: patches, selectors, routes, schema defaults, the pod
// command of a kvstore container, and pod URL rewriting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonPatch, mergePatch, PatchError } from '../../support/kube-api/patch.js';
import { fieldSelector, labelSelector, matchesSelectorObject } from '../../support/kube-api/selectors.js';
import { parseRoute } from '../../support/kube-api/routes.js';
import { applyDefaults } from '../../support/kube-api/schema-defaults.js';
import { prune } from '../../support/kube-api/schema-prune.js';
import { SchemaValidator } from '../../support/kube-api/schema-validate.js';
import { containerCommand, expand, replaceMounts, versionOfImage } from '../../support/kube-api/pod-command.js';
import { PodAddressBook } from '../../support/kube-api/pod-addresses.js';
import { containerArgv, imageExecutable, imageProcess } from '../../support/kube-api/image-entrypoint.js';
import { BUILD_ROOT } from '../../support/paths.js';
import { resolve } from 'node:path';
import type { KubeObject } from '../../support/kube-api/types.js';

const obj = (labels: Record<string, string>, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels }, ...extra });

void test('merge patch: null deletes, objects merge, arrays replace', () => {
  assert.deepEqual(mergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1, 2] }, { a: null, b: { c: 5 }, e: [3] }), { b: { c: 5, d: 3 }, e: [3] });
});

void test('JSON patch: add, remove, replace, move, copy, test; failures are values', () => {
  const doc = { a: { b: [1, 2] }, c: 'x' };
  assert.deepEqual(jsonPatch(doc, [
    { op: 'add', path: '/a/b/-', value: 3 },
    { op: 'replace', path: '/c', value: 'y' },
    { op: 'copy', from: '/c', path: '/d' },
    { op: 'move', from: '/d', path: '/a/e' },
    { op: 'remove', path: '/a/b/0' },
    { op: 'test', path: '/a/e', value: 'y' },
    { op: 'add', path: '/k~1l', value: true },
  ]), { a: { b: [2, 3], e: 'y' }, c: 'y', 'k/l': true });
  assert.deepEqual(doc, { a: { b: [1, 2] }, c: 'x' }, 'the input is not modified');
  assert.ok(jsonPatch(doc, [{ op: 'test', path: '/c', value: 'no' }]) instanceof PatchError);
  assert.ok(jsonPatch(doc, [{ op: 'remove', path: '/zz' }]) instanceof PatchError);
  assert.ok(jsonPatch(doc, [{ op: 'replace', path: '/zz', value: 1 }]) instanceof PatchError);
  assert.ok(jsonPatch(doc, { op: 'add' }) instanceof PatchError);
});

void test('label and field selectors', () => {
  const m = labelSelector('app=kv, tier in (a, b),!legacy,zone');
  assert.ok(!('error' in m));
  if ('error' in m) return;
  assert.equal(m(obj({ app: 'kv', tier: 'b', zone: 'z' })), true);
  assert.equal(m(obj({ app: 'kv', tier: 'c', zone: 'z' })), false);
  assert.equal(m(obj({ app: 'kv', tier: 'a', zone: 'z', legacy: '1' })), false);
  const notin = labelSelector('tier notin (a)');
  assert.ok(!('error' in notin) && notin(obj({})) && !notin(obj({ tier: 'a' })));
  assert.ok('error' in labelSelector('a in b'));
  const f = fieldSelector('metadata.name=p,status.phase!=Failed');
  assert.ok(!('error' in f) && f(obj({}, { status: { phase: 'Running' } })) && !f(obj({}, { status: { phase: 'Failed' } })));
  assert.equal(matchesSelectorObject({ matchLabels: { a: '1' }, matchExpressions: [{ key: 'b', operator: 'Exists' }] }, { a: '1', b: '' }), true);
  assert.equal(matchesSelectorObject({ matchExpressions: [{ key: 'b', operator: 'NotIn', values: ['x'] }] }, { b: 'x' }), false);
});

void test('routes', () => {
  assert.deepEqual(parseRoute('/api/v1/namespaces/ns1/pods/p/status'), { kind: 'resource', group: '', version: 'v1', namespace: 'ns1', plural: 'pods', name: 'p', subresource: 'status', watchPath: false });
  assert.deepEqual(parseRoute('/api/v1/namespaces/ns1'), { kind: 'resource', group: '', version: 'v1', namespace: undefined, plural: 'namespaces', name: 'ns1', subresource: undefined, watchPath: false });
  assert.deepEqual(parseRoute('/apis/kvstore.io/v1alpha1/watch/namespaces/d/kvstoreclusters'), { kind: 'resource', group: 'kvstore.io', version: 'v1alpha1', namespace: 'd', plural: 'kvstoreclusters', name: undefined, subresource: undefined, watchPath: true });
  assert.deepEqual(parseRoute('/apis/apps/v1'), { kind: 'resources', group: 'apps', version: 'v1' });
  assert.deepEqual(parseRoute('/apis'), { kind: 'groups' });
  assert.deepEqual(parseRoute('/healthz'), { kind: 'unknown' });
});

void test('schema defaults fill missing fields recursively, never overwrite', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 3 }, upgrade: { type: 'object', default: {}, properties: { wait: { type: 'integer', default: 120 } } }, members: { type: 'array', items: { type: 'object', properties: { healthy: { type: 'boolean', default: false } } } } } } } };
  assert.deepEqual(applyDefaults({ spec: { size: 5, members: [{}, { healthy: true }] } }, schema), { spec: { size: 5, upgrade: { wait: 120 }, members: [{ healthy: false }, { healthy: true }] } });
});

void test('kvstore container: env, fieldRefs, $(VAR), mounts, image tag, readiness', () => {
  assert.equal(versionOfImage('kvstore/kvstore:3.5.0'), '3.5.0');
  assert.equal(versionOfImage('registry:5000/kvstore/kvstore:v3.4.2'), '3.4.2');
  assert.equal(versionOfImage('kvstore/kvstore'), undefined);
  assert.equal(expand('$(A)-$(B)-$$(A)', { A: 'x' }), 'x-$(B)-$(A)');
  assert.equal(replaceMounts('--data-dir=/var/lib/kvstore/data,/var/lib/kvstorex', [{ mountPath: '/var/lib/kvstore', hostPath: '/tmp/pvc' }]), '--data-dir=/tmp/pvc/data,/var/lib/kvstorex');
  // One pass: the host path put in for one mount is not rewritten by another (`/tmp`).
  const mounts = [{ mountPath: '/var/lib/kvstore', hostPath: '/tmp/root/pvc' }, { mountPath: '/tmp', hostPath: '/tmp/root/empty' }, { mountPath: '/var/lib/kvstore/wal', hostPath: '/w' }];
  assert.equal(replaceMounts('/var/lib/kvstore/data /tmp/x /var/lib/kvstore/wal/1', mounts), '/tmp/root/pvc/data /tmp/root/empty/x /w/1');
  const pod: KubeObject = {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'kv-1', namespace: 'ns1', labels: { app: 'kv' } },
    spec: {
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-kv-1' } }],
      containers: [{
        name: 'kvstore', image: 'kvstore/kvstore:3.4.0', command: ['/usr/local/bin/kvstore'],
        args: ['--name=$(POD_NAME)', '--data-dir=/var/lib/kvstore/m', '--log-level=$(LEVEL)'],
        env: [
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
          { name: 'LEVEL', value: 'debug' },
          { name: 'WHO', value: '$(POD_NAME)@$(APP)' },
        ],
        ports: [{ name: 'client', containerPort: 2379 }],
        readinessProbe: { httpGet: { path: '/health', port: 'client' } },
        volumeMounts: [{ name: 'data', mountPath: '/var/lib/kvstore' }],
      }],
    },
  };
  const cmd = containerCommand(pod, '127.0.0.9', (v) => (v.persistentVolumeClaim ? `/pv/${v.persistentVolumeClaim.claimName}` : undefined));
  assert.ok(!('error' in cmd));
  if ('error' in cmd) return;
  assert.deepEqual(cmd.args, ['--name=kv-1', '--data-dir=/pv/data-kv-1/m', '--log-level=debug']);
  assert.deepEqual(cmd.env, { POD_NAME: 'kv-1', APP: 'kv', LEVEL: 'debug', WHO: 'kv-1@kv', KVSTORE_SERVER_VERSION: '3.4.0' });
  assert.deepEqual(cmd.readiness, { port: 2379, path: '/health' });
});

void test('pod URLs: DNS names, own wildcard listeners and pod IPs map to stable hosts and ports; others stay', async () => {
  const book = new PodAddressBook();
  const ctx = { namespace: 'ns1', self: { name: 'kv-0', subdomain: 'kv-peers' } };
  const text = '--initial-cluster=kv-0=http://kv-0.kv-peers.ns1.svc:2380,kv-1=http://kv-1.kv-peers.ns1.svc.cluster.local:2380,kv-2=http://kv-2.kv-peers:2380';
  await book.prepare([text, 'http://0.0.0.0:2379', 'http://example.com:80', 'http://kv-client.ns1.svc:2379'], ctx);
  const out = book.rewrite(text, ctx);
  const hosts = ['kv-0', 'kv-1', 'kv-2'].map((p) => book.addressOf('ns1', p).host);
  assert.equal(new Set(hosts).size, 3);
  assert.match(out, new RegExp(`^--initial-cluster=kv-0=http://${hosts[0]}:\\d+,kv-1=http://${hosts[1]}:\\d+,kv-2=http://${hosts[2]}:\\d+$`));
  const own = book.rewrite('http://0.0.0.0:2380', ctx);
  assert.equal(own, out.split(',')[0]?.split('kv-0=')[1], 'the own listener and the peers\' URL of kv-0 agree');
  assert.equal(book.rewrite('http://example.com:80', ctx), 'http://example.com:80');
  assert.equal(book.rewrite('http://kv-client.ns1.svc:2379', ctx), 'http://kv-client.ns1.svc:2379', 'service names are not pods');
  // Stable: the same pod and port map the same way later, also from outside, also by pod IP.
  assert.equal(await book.resolve('http://kv-1.kv-peers.ns1.svc:2380', 'ns1'), out.split(',')[1]?.split('kv-1=')[1]);
  assert.equal(await book.resolve(`http://${hosts[2]}:2380`, 'ns1'), out.split(',')[2]?.split('kv-2=')[1]);
});

void test('pruning keeps declared fields, preserve-unknown subtrees, additionalProperties maps and root metadata', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { a: { type: 'string' }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, map: { type: 'object', additionalProperties: { type: 'string' } }, list: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } } } },
    },
  };
  const value = { apiVersion: 'x/v1', kind: 'K', metadata: { name: 'n', labels: { l: 'v' } }, spec: { a: 'x', b: 'dropped', free: { any: { thing: 1 } }, map: { k: 'v' }, list: [{ n: 'a', m: 'dropped' }] }, other: 1 };
  assert.deepEqual(prune(value, schema, true), { apiVersion: 'x/v1', kind: 'K', metadata: { name: 'n', labels: { l: 'v' } }, spec: { a: 'x', free: { any: { thing: 1 } }, map: { k: 'v' }, list: [{ n: 'a' }] } });
});

void test('schema validation: causes with the API server\'s field paths and messages; self == oldSelf on updates', () => {
  const v = new SchemaValidator({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['version'],
        properties: {
          size: { type: 'integer', enum: [1, 3] },
          version: { type: 'string', pattern: '^3\\.\\d+$' },
          members: { type: 'array', maxItems: 1, items: { type: 'object', properties: { name: { type: 'string', minLength: 1 } } } },
          storage: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'is immutable' }] },
          when: { type: 'string', format: 'date-time' },
        },
      },
    },
  });
  assert.deepEqual(v.causes({ spec: { version: '3.4', when: 'not checked' } }), []);
  assert.deepEqual(v.causes({ spec: { size: 2, version: 'x', members: [{ name: '' }, {}] } }), [
    { reason: 'FieldValueNotSupported', message: 'Unsupported value: 2: supported values: "1", "3"', field: 'spec.size' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "x": spec.version in body should match \'^3\\.\\d+$\'', field: 'spec.version' },
    { reason: 'FieldValueTooMany', message: 'Too many: must have at most 1 items', field: 'spec.members' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "": spec.members[0].name in body should be at least 1 chars long', field: 'spec.members[0].name' },
  ]);
  assert.deepEqual(v.causes({ spec: {} }), [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.version' }]);
  assert.deepEqual(v.causes({ spec: { version: 1 } }), [{ reason: 'FieldValueTypeInvalid', message: 'Invalid value: "integer": spec.version in body must be of type string: "integer"', field: 'spec.version' }]);
  const old = { spec: { version: '3.4', storage: { size: '1Gi', class: 'a' } } };
  assert.deepEqual(v.causes({ spec: { version: '3.5', storage: { class: 'a', size: '1Gi' } } }, old), [], 'key order does not matter');
  assert.deepEqual(v.causes({ spec: { version: '3.5', storage: { size: '2Gi', class: 'a' } } }, old), [{ reason: 'FieldValueInvalid', message: 'Invalid value: "object": is immutable', field: 'spec.storage' }]);
  assert.deepEqual(v.causes({ spec: { version: '3.5', storage: { size: '2Gi' } } }), [], 'no transition rule on create');
});

void test('image entrypoints: a container runs its image\'s ENTRYPOINT and CMD, by Kubernetes\' rules, read from the Dockerfiles', () => {
  const root = resolve(BUILD_ROOT, '..');
  const member = imageProcess('kvstore/kvstore:3.4.0', root);
  const operator = imageProcess('docker.io/kvstore/kvstore-operator:0.1.0', root);
  assert.deepEqual(member, { entrypoint: ['kvstore'], cmd: [] }, 'the member image: kvstore, no CMD (the HEALTHCHECK CMD is not the image\'s)');
  assert.deepEqual(operator, { entrypoint: ['kvstore-operator'], cmd: ['run'] });
  assert.equal(imageProcess('busybox:1', root), undefined);
  // No command: the image's ENTRYPOINT, then args (or the image's CMD without args).
  assert.deepEqual(containerArgv(operator, undefined, undefined), ['kvstore-operator', 'run']);
  assert.deepEqual(containerArgv(operator, undefined, ['local', '-f', 'c.yaml']), ['kvstore-operator', 'local', '-f', 'c.yaml']);
  // A command replaces ENTRYPOINT and drops CMD.
  assert.deepEqual(containerArgv(operator, ['kvstore-operator', 'version'], undefined), ['kvstore-operator', 'version']);
  assert.deepEqual(containerArgv(member, undefined, ['--name=a']), ['kvstore', '--name=a']);
  assert.equal(imageExecutable('/usr/local/bin/kvstore'), 'kvstore');
  assert.equal(imageExecutable('sh'), undefined);
  const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'kvstore', image: 'kvstore/kvstore:3.5.0', args: ['--name=p'] }] } };
  const image = (ref: string | undefined): ReturnType<typeof imageProcess> => imageProcess(ref, root);
  const cmd = containerCommand(pod, '127.0.0.9', () => undefined, undefined, image);
  assert.ok(!('error' in cmd) && cmd.executable === 'kvstore' && cmd.args.join(' ') === '--name=p', 'no command: the image\'s kvstore');
  const shell: KubeObject = { ...pod, spec: { containers: [{ name: 'kvstore', image: 'kvstore/kvstore:3.5.0', command: ['sh', '-c', 'kvstore'] }] } };
  const refused = containerCommand(shell, '127.0.0.9', () => undefined, undefined, image);
  assert.ok('error' in refused && /runs "sh", which image kvstore\/kvstore:3\.5\.0 does not hold/.test(refused.error));
});
