// spec.backup: defaults, and the checks validate-backup.ts adds to the schema's (table tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../../operator/api/defaults.js';
import { validateCluster } from '../../../operator/api/validate.js';
import type { KvstoreClusterInput } from '../../../operator/api/types.js';

const doc = (backup: unknown): KvstoreClusterInput =>
  ({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo' }, spec: { version: '3.4.0', backup } }) as KvstoreClusterInput;

void test('spec.backup defaults: destination {}, retention maxCount 7, suspend false; s3 region us-east-1', () => {
  assert.deepEqual(withDefaults(doc({ schedule: '@daily' })).spec.backup, { schedule: '@daily', destination: {}, retention: { maxCount: 7 }, suspend: false });
  assert.equal(withDefaults(doc({ schedule: '@daily', destination: { s3: { bucket: 'bkt' } } })).spec.backup?.destination.s3?.region, 'us-east-1');
  assert.equal(withDefaults(doc(undefined)).spec.backup, undefined);
});

const CASES: readonly (readonly [what: string, backup: unknown, target: 'kubernetes' | 'local', path: string | undefined, fragment: string])[] = [
  ['a 5-field schedule', { schedule: '0 */6 * * *' }, 'kubernetes', undefined, ''],
  ['a 6-field schedule and a relative path', { schedule: '*/10 * * * * *', destination: { path: 'a/b' } }, 'kubernetes', undefined, ''],
  ['an absolute path in local mode', { schedule: '@hourly', destination: { path: '/var/backups' } }, 'local', undefined, ''],
  ['s3 with everything', { schedule: '@daily', destination: { s3: { bucket: 'bkt', prefix: 'p/q', endpoint: 'https://minio:9000', region: 'eu-west-1', credentialsSecret: 's3-creds' } }, retention: { maxCount: 3, maxAgeHours: 24 } }, 'kubernetes', undefined, ''],
  ['no schedule', {}, 'kubernetes', 'spec.backup.schedule', 'is required'],
  ['a schedule that does not parse', { schedule: 'every day' }, 'kubernetes', 'spec.backup.schedule', 'fields'],
  ['a schedule that never fires', { schedule: '0 0 31 4 *' }, 'kubernetes', 'spec.backup.schedule', 'never fires'],
  ['path and s3', { schedule: '@daily', destination: { path: 'x', s3: { bucket: 'bkt' } } }, 'kubernetes', 'spec.backup.destination', 'not both'],
  ['an absolute path on Kubernetes', { schedule: '@daily', destination: { path: '/etc' } }, 'kubernetes', 'spec.backup.destination.path', 'relative'],
  ['.. on Kubernetes', { schedule: '@daily', destination: { path: 'a/../../b' } }, 'kubernetes', 'spec.backup.destination.path', "'..'"],
  ['an endpoint that is not a URL', { schedule: '@daily', destination: { s3: { bucket: 'bkt', endpoint: 'minio:9000' } } }, 'kubernetes', 'spec.backup.destination.s3.endpoint', 'http(s) URL'],
  ['a prefix starting with /', { schedule: '@daily', destination: { s3: { bucket: 'bkt', prefix: '/p' } } }, 'kubernetes', 'spec.backup.destination.s3.prefix', "'/'"],
  ['a Secret name that is not one', { schedule: '@daily', destination: { s3: { bucket: 'bkt', credentialsSecret: 'S3_Creds' } } }, 'kubernetes', 'spec.backup.destination.s3.credentialsSecret', 'Secret name'],
  ['maxCount 0', { schedule: '@daily', retention: { maxCount: 0 } }, 'kubernetes', 'spec.backup.retention.maxCount', ''],
  ['an unknown field', { schedule: '@daily', every: '1h' }, 'kubernetes', 'spec.backup.every', ''],
];

for (const [what, backup, target, path, fragment] of CASES) {
  void test(`spec.backup validation: ${what} → ${path ?? 'valid'}`, () => {
    const errors = validateCluster(doc(backup), { target });
    if (path === undefined) assert.deepEqual(errors, []);
    else {
      const e = errors.find((x) => x.path === path);
      assert.ok(e !== undefined, JSON.stringify(errors));
      assert.ok(e.message.includes(fragment), e.message);
    }
  });
}
