// Configuration of lease checkpointing: the 3.4 flag, and the interval test knob in the environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LEASE_CHECKPOINT_INTERVAL_MS, LEASE_CHECKPOINT_INTERVAL_ENV } from '../../../server/config/lease-checkpoint.js';
import { failure, run } from '../config/helpers.js';

void test('checkpointing is off by default, with etcd\'s 5-minute interval', () => {
  const { config, warnings } = run([]);
  assert.equal(config.experimentalEnableLeaseCheckpoint, false);
  assert.equal(config.leaseCheckpointIntervalMs, DEFAULT_LEASE_CHECKPOINT_INTERVAL_MS);
  assert.equal(DEFAULT_LEASE_CHECKPOINT_INTERVAL_MS, 300_000);
  assert.deepEqual(warnings, []);
});

void test('--experimental-enable-lease-checkpoint is honoured (flag, env, YAML), without an "ignored" warning', () => {
  for (const out of [
    run(['--experimental-enable-lease-checkpoint'], { KVSTORE_SERVER_VERSION: '3.4.0' }),
    run([], { KVSTORE_SERVER_VERSION: '3.4.0', KVSTORE_EXPERIMENTAL_ENABLE_LEASE_CHECKPOINT: 'true' }),
    run(['--config-file=c.yml'], { KVSTORE_SERVER_VERSION: '3.4.0' }, { 'c.yml': 'experimental-enable-lease-checkpoint: true\n' }),
  ]) {
    assert.equal(out.config.experimentalEnableLeaseCheckpoint, true);
    assert.deepEqual(out.warnings, []);
  }
});

void test('the flag came with 3.4: set on a 3.3 line it is accepted with a warning', () => {
  const { config, warnings } = run(['--experimental-enable-lease-checkpoint'], { KVSTORE_SERVER_VERSION: '3.3.0' });
  assert.equal(config.experimentalEnableLeaseCheckpoint, true);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /experimental-enable-lease-checkpoint was added in 3\.4/);
});

void test('KVSTORE_LEASE_CHECKPOINT_INTERVAL sets the interval (flags or YAML), is not "unrecognized", must be a positive duration', () => {
  assert.equal(LEASE_CHECKPOINT_INTERVAL_ENV, 'KVSTORE_LEASE_CHECKPOINT_INTERVAL');
  const fromFlags = run(['--experimental-enable-lease-checkpoint'], { KVSTORE_LEASE_CHECKPOINT_INTERVAL: '1500ms' });
  assert.equal(fromFlags.config.leaseCheckpointIntervalMs, 1500);
  assert.deepEqual(fromFlags.warnings, []);
  const fromFile = run(['--config-file=c.yml'], { KVSTORE_LEASE_CHECKPOINT_INTERVAL: '2s' }, { 'c.yml': 'name: a\n' });
  assert.equal(fromFile.config.leaseCheckpointIntervalMs, 2000);
  assert.equal(run([], { KVSTORE_LEASE_CHECKPOINT_INTERVAL: '' }).config.leaseCheckpointIntervalMs, DEFAULT_LEASE_CHECKPOINT_INTERVAL_MS);
  assert.match(failure([], { KVSTORE_LEASE_CHECKPOINT_INTERVAL: 'soon' }), /KVSTORE_LEASE_CHECKPOINT_INTERVAL/);
  assert.match(failure([], { KVSTORE_LEASE_CHECKPOINT_INTERVAL: '0s' }), /must be > 0/);
});
