// KVSTORE_CLIENT_THREADS: how many front-end threads serve the client port (none by default).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientThreads, DEFAULT_CLIENT_THREADS } from '../../../server/config/client-threads.js';
import { failure, run } from './helpers.js';

void test('unset or empty is the default; "0" and "1" are taken as given', () => {
  assert.deepEqual(clientThreads({}), { ok: true, value: DEFAULT_CLIENT_THREADS });
  assert.deepEqual(clientThreads({ KVSTORE_CLIENT_THREADS: '' }), { ok: true, value: DEFAULT_CLIENT_THREADS });
  assert.deepEqual(clientThreads({ KVSTORE_CLIENT_THREADS: '0' }), { ok: true, value: 0 });
  assert.deepEqual(clientThreads({ KVSTORE_CLIENT_THREADS: '1' }), { ok: true, value: 1 });
});

void test('a member configured with it gets no "unrecognized environment variable" warning', () => {
  assert.deepEqual(run([], { KVSTORE_CLIENT_THREADS: '1' }).warnings, []);
  assert.deepEqual(run(['--config-file=c.yml'], { KVSTORE_CLIENT_THREADS: '0' }, { 'c.yml': 'name: a\n' }).warnings, []);
});

void test('any other value is a configuration error naming the variable and the accepted values', () => {
  for (const bad of ['2', 'yes', ' 1']) {
    const message = failure([], { KVSTORE_CLIENT_THREADS: bad });
    assert.match(message, /KVSTORE_CLIENT_THREADS/);
    assert.match(message, /want "0" or "1"/);
  }
});
