// Simple tokens: format, lifetime on a virtual clock, invalidation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newSimpleToken, SimpleTokens } from '../../../server/auth/simple-tokens.js';

void test('a token is 16 letters, a dot and the suffix', () => {
  let n = 0;
  const bytes = (k: number): Buffer => Buffer.from(Array.from({ length: k }, () => (n++ * 37) % 256));
  const t = newSimpleToken(bytes, 42);
  assert.match(t, /^[a-zA-Z]{16}\.42$/);
});

void test('a token lives its TTL from the last use on this member', () => {
  let now = 1000;
  const tokens = new SimpleTokens(300, () => now);
  tokens.assign('t1', 'alice');
  now += 250;
  assert.equal(tokens.lookup('t1'), 'alice');
  now += 250;
  assert.equal(tokens.lookup('t1'), 'alice', 'the lookup restarted the lifetime');
  now += 301;
  assert.equal(tokens.lookup('t1'), undefined);
  assert.equal(tokens.lookup('nope'), undefined);
});

void test('invalidating a user drops only its tokens; clear drops all; assign sweeps expired ones', () => {
  let now = 0;
  const tokens = new SimpleTokens(100, () => now);
  tokens.assign('a1', 'alice');
  tokens.assign('a2', 'alice');
  tokens.assign('b1', 'bob');
  tokens.invalidateUser('alice');
  assert.equal(tokens.lookup('a1'), undefined);
  assert.equal(tokens.lookup('b1'), 'bob');
  now = 500;
  tokens.assign('c1', 'carol');
  assert.equal(tokens.size, 1);
  tokens.clear();
  assert.equal(tokens.lookup('c1'), undefined);
});
