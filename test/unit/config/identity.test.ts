// Member and cluster IDs match etcd's derivation (ETCD-FACTS §7.1 check values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clusterIdFor, formatId, memberIdFor, parseId } from '../../../server/config/identity.js';
import { initialClusterId, initialMembers } from '../../../server/config/bootstrap.js';
import { run } from './helpers.js';

void test('default single member: member 8e9e05c52164694d, cluster cdf818194e3a8c32', () => {
  const member = memberIdFor(['http://localhost:2380'], 'etcd-cluster');
  assert.equal(member, 0x8e9e05c52164694dn);
  assert.equal(clusterIdFor([member]), 0xcdf818194e3a8c32n);
  assert.equal(formatId(member), '8e9e05c52164694d');
  assert.equal(formatId(clusterIdFor([member])), 'cdf818194e3a8c32');
});

void test('the default configuration bootstraps the same ids', () => {
  const { config } = run([]);
  const [only] = initialMembers(config);
  assert.equal(only?.id, 0x8e9e05c52164694dn);
  assert.equal(only?.name, 'default');
  assert.equal(initialClusterId(config), 0xcdf818194e3a8c32n);
});

void test('member id: peer URL order does not matter; token and time do', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.webUrl(), { minLength: 1, maxLength: 4 }), fc.string(), (urls, token) => {
      const reversed = [...urls].reverse();
      assert.equal(memberIdFor(urls, token), memberIdFor(reversed, token));
    }),
  );
  const a = memberIdFor(['http://10.0.0.1:2380'], 'etcd-cluster');
  assert.notEqual(a, memberIdFor(['http://10.0.0.1:2380'], 'other-token'));
  assert.notEqual(a, memberIdFor(['http://10.0.0.1:2380'], 'etcd-cluster', 1_700_000_000_000));
});

void test('member id with time hashes whole Unix seconds (milliseconds truncated)', () => {
  const urls = ['http://10.0.0.1:2380'];
  assert.equal(memberIdFor(urls, 't', 1_700_000_000_000), memberIdFor(urls, 't', 1_700_000_000_999));
  assert.notEqual(memberIdFor(urls, 't', 1_700_000_000_000), memberIdFor(urls, 't', 1_700_000_001_000));
  // Same bytes as hashing the seconds appended to the token.
  assert.equal(memberIdFor(urls, 't', 1_700_000_000_000), memberIdFor(urls, 't1700000000'));
});

void test('cluster id: member order does not matter', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { minLength: 1, maxLength: 5 }), (ids) => {
      assert.equal(clusterIdFor(ids), clusterIdFor([...ids].reverse()));
    }),
  );
});

void test('formatId / parseId round trip, lowercase and unpadded', () => {
  assert.equal(formatId(0x1n), '1');
  assert.equal(formatId(0xabcn), 'abc');
  assert.equal(parseId('8E9E05C52164694D'), 0x8e9e05c52164694dn);
  assert.equal(parseId(''), undefined);
  assert.equal(parseId('xyz'), undefined);
  assert.equal(parseId('12345678901234567'), undefined);
  fc.assert(fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (id) => assert.equal(parseId(formatId(id)), id)));
});
