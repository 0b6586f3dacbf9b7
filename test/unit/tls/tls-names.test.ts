/** Pure TLS name tables: Go cipher suite names → OpenSSL, etcd's TLS version names → Node's. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { opensslCiphers } from '../../../server/tls/cipher-suites.js';
import { tlsVersionRange } from '../../../server/tls/tls-versions.js';

void test('Go cipher suite names map to OpenSSL names in the given order; TLS 1.3 names are accepted and left out', () => {
  assert.deepEqual(opensslCiphers([]), { ok: true, ciphers: undefined });
  assert.deepEqual(
    opensslCiphers(['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305', 'TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_AES_128_GCM_SHA256']),
    { ok: true, ciphers: 'ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:AES128-SHA' },
  );
  // Go's two spellings of a ChaCha20 suite are one OpenSSL suite.
  assert.deepEqual(opensslCiphers(['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256']), { ok: true, ciphers: 'ECDHE-RSA-CHACHA20-POLY1305' });
  assert.deepEqual(opensslCiphers(['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256']), {
    ok: false,
    message: 'unexpected TLS cipher suite "ECDHE-RSA-AES128-GCM-SHA256"',
  });
});

void test('TLS versions: defaults, names, and etcd 3.5 errors', () => {
  assert.deepEqual(tlsVersionRange('', '', []), { ok: true, minVersion: 'TLSv1.2', maxVersion: undefined });
  assert.deepEqual(tlsVersionRange('TLS1.3', '', []), { ok: true, minVersion: 'TLSv1.3', maxVersion: undefined });
  assert.deepEqual(tlsVersionRange('TLS1.2', 'TLS1.2', ['TLS_RSA_WITH_AES_128_CBC_SHA']), { ok: true, minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' });
  assert.deepEqual(tlsVersionRange('', 'TLS1.0', []), { ok: false, flag: 'tls-max-version', message: 'unexpected TLS version "TLS1.0" (must be one of: TLS1.2, TLS1.3)' });
  assert.deepEqual(tlsVersionRange('TLS1.3', 'TLS1.2', []), { ok: false, flag: 'tls-min-version', message: 'min version (TLS1.3) is greater than max version (TLS1.2)' });
  assert.deepEqual(tlsVersionRange('TLS1.3', '', ['TLS_RSA_WITH_AES_128_CBC_SHA']), {
    ok: false,
    flag: 'cipher-suites',
    message: 'cipher suites cannot be configured when only TLS1.3 is enabled',
  });
});
