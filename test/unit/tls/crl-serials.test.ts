/**
 * CRL reading (crl-serials.ts): the revoked serials of one list in PEM and in DER are the same and
 * are the certificates' serials as Node reports them; an unreadable list is refused with Go's words.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { readCrlSerials, serialKey } from '../../../server/tls/crl-serials.js';
import { issueCertificate, makeTlsFiles, revokeCertificates, type TlsFiles } from '../../support/tls-certs.js';

let files: TlsFiles;
let revokedSerials: string[];

before(async () => {
  files = await makeTlsFiles(['127.0.0.1']);
  const other = await issueCertificate(files, 'crl-other', 'other', []);
  revokedSerials = [files.clientCert, other.cert].map((f) => serialKey(new X509Certificate(readFileSync(f)).serialNumber)).sort();
});

void test('PEM and DER forms of one CRL give the revoked certificates serials', async () => {
  const der = await revokeCertificates(files, [files.clientCert, `${files.dir}/crl-other.crt`], { der: true, expired: true });
  const pem = `${files.dir}/ca.crl`;
  for (const path of [pem, der]) {
    const read = readCrlSerials(readFileSync(path));
    assert.ok(read.ok, path);
    assert.deepEqual([...read.revoked].sort(), revokedSerials);
  }
});

void test('a CRL revoking nothing has no serials', async () => {
  const der = await revokeCertificates(files, [], { der: true });
  const read = readCrlSerials(readFileSync(der));
  assert.ok(read.ok);
  assert.equal(read.revoked.size, 0);
});

void test('bytes that are no CRL are refused', () => {
  for (const bad of [Buffer.from('not a crl'), Buffer.from('-----BEGIN X509 CRL-----\nAAAA'), Buffer.from([0x30, 0x05, 0x30, 0x03, 0x02, 0x01])]) {
    const read = readCrlSerials(bad);
    assert.equal(read.ok, false);
    if (!read.ok) assert.match(read.reason, /^x509: failed to parse CRL: /);
  }
});

void test('serial keys drop leading zeros and separators', () => {
  assert.equal(serialKey('00:4a:3c'), '4A3C');
  assert.equal(serialKey('004A3C'), '4A3C');
});
