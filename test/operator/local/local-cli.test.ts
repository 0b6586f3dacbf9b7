/**
 * `kvstore-operator local` refuses a manifest it cannot run: exit 2, the problem named on
 * stderr, nothing started.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { LocalOperator, writeManifest } from './local-operator.js';

void test('an invalid manifest: exit 2 naming the field, no member started', async () => {
  const { file, clusterDir } = writeManifest('apiVersion: kvstore.io/v1alpha1\nkind: KvstoreCluster\nmetadata:\n  name: bad\nspec:\n  size: 2\n  version: 3.4.0\n', 'bad');
  const op = new LocalOperator(file, clusterDir);
  assert.equal(await op.exited, 2);
  assert.match(op.logs(), /spec\.size/);
  assert.equal(existsSync(clusterDir), false);
});

void test('a missing manifest: exit 2', async () => {
  const op = new LocalOperator('/nonexistent/cluster.yaml', '/nonexistent/x.kvstore');
  assert.equal(await op.exited, 2);
  assert.match(op.logs(), /nonexistent\/cluster\.yaml/);
});
