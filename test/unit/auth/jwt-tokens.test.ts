// JWT tokens: option parsing (etcd's option names and errors), sign/verify, expiry on a virtual clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { JwtTokens, parseJwtOptions } from '../../../server/auth/jwt-tokens.js';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const FILES: Record<string, Buffer> = {
  '/k/priv.pem': Buffer.from(privateKey.export({ type: 'pkcs8', format: 'pem' })),
  '/k/pub.pem': Buffer.from(publicKey.export({ type: 'spki', format: 'pem' })),
  '/k/secret': Buffer.from('s3cret'),
};
const read = (p: string): Buffer => FILES[p] ?? Buffer.alloc(0);

void test('options: sign-method, keys, ttl as a Go duration; unknown options and methods are refused', () => {
  const o = parseJwtOptions('jwt,pub-key=/k/pub.pem,priv-key=/k/priv.pem,sign-method=ES256,ttl=1m30s', read);
  assert.ok(typeof o !== 'string');
  assert.equal(o.ttlMs, 90_000);
  assert.equal(o.signMethod, 'ES256');
  const d = parseJwtOptions('jwt,priv-key=/k/secret,sign-method=HS256', read);
  assert.ok(typeof d !== 'string' && d.ttlMs === 300_000);
  assert.equal(parseJwtOptions('jwt,priv-key=/k/priv.pem,sign-method=XX1', read), 'auth: invalid auth signature method');
  assert.equal(parseJwtOptions('jwt,sign-method=RS256', read), 'auth: missing key data');
  assert.match(String(parseJwtOptions('jwt,sign-method=RS256,colour=red', read)), /unknown auth token options: colour/);
  assert.match(String(parseJwtOptions('jwt,priv-key=/k/secret,sign-method=HS256,ttl=soon', read)), /invalid jwt ttl/);
});

void test('a signed token verifies with the public key alone until it expires', async () => {
  let now = 1_700_000_000_000;
  const opts = parseJwtOptions('jwt,pub-key=/k/pub.pem,priv-key=/k/priv.pem,sign-method=ES256,ttl=10s', read);
  assert.ok(typeof opts !== 'string');
  const signer = new JwtTokens(opts, () => now);
  const token = await signer.sign('alice', 7);
  const verifier = new JwtTokens({ ...opts, privateKey: undefined }, () => now);
  assert.equal(verifier.canSign, false);
  assert.deepEqual(await verifier.verify(token), { username: 'alice', revision: 7 });
  assert.equal(await verifier.verify(`${token.slice(0, -3)}abc`), undefined);
  now += 11_000;
  assert.equal(await verifier.verify(token), undefined);
});

void test('HMAC tokens use the secret both ways; another secret does not verify them', async () => {
  const now = (): number => 1_700_000_000_000;
  const a = parseJwtOptions('jwt,priv-key=/k/secret,sign-method=HS256', read);
  assert.ok(typeof a !== 'string');
  const token = await new JwtTokens(a, now).sign('bob', 3);
  assert.deepEqual(await new JwtTokens(a, now).verify(token), { username: 'bob', revision: 3 });
  assert.equal(await new JwtTokens({ ...a, privateKey: Buffer.from('other') }, now).verify(token), undefined);
});
