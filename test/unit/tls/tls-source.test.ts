/**
 * The reloading TLS material (tls-source.ts) and auto TLS (auto-tls.ts), on real files in a
 * temp dir: the first load fails naming the flag; a changed file is read at the next call; a
 * broken replacement keeps the previous material; selfCert generates once and then reuses.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { X509Certificate } from 'node:crypto';
import pino from 'pino';
import { selfCert } from '../../../server/tls/auto-tls.js';
import { createTlsSource, TlsLoadError, type TlsFiles } from '../../../server/tls/tls-source.js';

const dir = mkdtempSync(join(tmpdir(), 'tls-source-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const logger = pino({ level: 'silent' });
const protocol = { ciphers: undefined, minVersion: 'TLSv1.2' as const, maxVersion: undefined };
const flags = { certFile: '--cert-file', keyFile: '--key-file', trustedCaFile: '--trusted-ca-file', crlFile: '--client-crl-file' };
const NOW = new Date('2026-01-02T03:04:05Z');

void test('the first load names the flag of a missing file', async () => {
  const files: TlsFiles = { certFile: join(dir, 'none.crt'), keyFile: join(dir, 'none.key'), trustedCaFile: '', crlFile: '' };
  const source = createTlsSource({ files, flags, protocol, skipVerify: false, logger });
  await assert.rejects(source.load(), (e: unknown) => e instanceof TlsLoadError && e.message === `--cert-file: open ${files.certFile}: no such file or directory`);
});

void test('auto TLS generates a certificate for the hosts once, then reuses it', async () => {
  const first = await selfCert(join(dir, 'fixtures', 'client'), ['127.0.0.7', '[::1]', 'localhost'], 1, NOW);
  assert.equal(first.generated, true);
  const cert = new X509Certificate(readFileSync(first.certFile));
  assert.match(cert.subject, /O=etcd/);
  assert.equal(cert.subjectAltName, 'IP Address:127.0.0.7, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
  assert.equal(new Date(cert.validTo).getTime() - new Date(cert.validFrom).getTime(), 365 * 24 * 3600 * 1000);
  const again = await selfCert(join(dir, 'fixtures', 'client'), ['127.0.0.8'], 1, NOW);
  assert.deepEqual(again, { ...first, generated: false });
});

void test('a replaced certificate is loaded at the next call; a broken replacement keeps the previous one', async () => {
  const a = await selfCert(join(dir, 'a'), ['127.0.0.1'], 1, NOW);
  const b = await selfCert(join(dir, 'b'), ['127.0.0.2'], 1, NOW);
  const files: TlsFiles = { certFile: join(dir, 'live.crt'), keyFile: join(dir, 'live.key'), trustedCaFile: '', crlFile: '' };
  writeFileSync(files.certFile, readFileSync(a.certFile));
  writeFileSync(files.keyFile, readFileSync(a.keyFile));
  const source = createTlsSource({ files, flags, protocol, skipVerify: true, logger });
  await source.load();
  const first = await source.current();
  assert.equal(first.generation, 1);
  assert.equal((await source.current()).generation, 1, 'unchanged files are not read again');
  assert.equal(source.clientOptions().rejectUnauthorized, false);

  // The key alone is replaced: the pair no longer matches, the previous material stays.
  writeFileSync(`${files.keyFile}.new`, readFileSync(b.keyFile));
  renameSync(`${files.keyFile}.new`, files.keyFile);
  assert.equal((await source.current()).generation, 1);
  // Then the certificate: the new pair is loaded.
  writeFileSync(`${files.certFile}.new`, readFileSync(b.certFile));
  renameSync(`${files.certFile}.new`, files.certFile);
  const next = await source.current();
  assert.equal(next.generation, 2);
  assert.deepEqual(next.cert, readFileSync(b.certFile));
  assert.deepEqual(source.clientOptions().cert, readFileSync(b.certFile));
});
