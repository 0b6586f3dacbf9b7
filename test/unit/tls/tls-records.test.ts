/**
 * tls-records.ts (pure): the record scanner finds where the first ChangeCipherSpec record
 * starts, whatever the chunking of the stream (property test), and skips bodies that contain
 * the CCS type byte; tls-alert-text.ts: an OpenSSL alert error in Go's words.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { badCertificateAlert, RecordType, TlsRecordScanner } from '../../../server/tls/tls-records.js';
import { remoteAlertText } from '../../../server/tls/tls-alert-text.js';

function record(type: number, body: Buffer): Buffer {
  const header = Buffer.from([type, 0x03, 0x03, 0, 0]);
  header.writeUInt16BE(body.length, 3);
  return Buffer.concat([header, body]);
}

/** The absolute offset the scanner reports when `stream` is fed in chunks cut at `cuts`. */
function scanInChunks(stream: Buffer, cuts: number[]): number {
  const scanner = new TlsRecordScanner();
  const bounds = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
  let start = 0;
  for (const end of [...bounds, stream.length]) {
    if (end <= start) continue;
    const at = scanner.findRecord(stream.subarray(start, end), RecordType.ChangeCipherSpec);
    if (at >= 0) return start + at;
    start = end;
  }
  return -1;
}

void test('the first ChangeCipherSpec record is found at its header, whatever the chunks', () => {
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 5 }),
      fc.boolean(),
      fc.array(fc.nat(2000), { maxLength: 8 }),
      (bodies, withCcs, cuts) => {
        // Handshake bodies full of 0x14 bytes must not be taken for a CCS record.
        const before = Buffer.concat(bodies.map((b) => record(RecordType.Handshake, Buffer.from(b))));
        const stream = withCcs ? Buffer.concat([before, record(RecordType.ChangeCipherSpec, Buffer.from([1])), record(RecordType.Handshake, Buffer.from([20, 20]))]) : before;
        assert.equal(scanInChunks(stream, cuts), withCcs ? before.length : -1);
      },
    ),
  );
});

void test('a body made of the CCS type byte is skipped', () => {
  const stream = Buffer.concat([record(RecordType.Handshake, Buffer.alloc(40, 20)), record(RecordType.ChangeCipherSpec, Buffer.from([1]))]);
  assert.equal(scanInChunks(stream, [1, 3, 7, 44]), 45);
});

void test('the bad_certificate alert is a fatal TLS 1.2 alert record, code 42', () => {
  assert.deepEqual([...badCertificateAlert()], [21, 3, 3, 0, 2, 2, 42]);
});

void test("a received alert in Go's words; other errors are not alerts", () => {
  const fromConnect = Object.assign(new Error('80EC:error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate:../rec_layer_s3.c:1601:SSL alert number 42\n'), {
    code: 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  });
  assert.equal(remoteAlertText(fromConnect), 'remote error: tls: bad certificate');
  const fromRequest = Object.assign(new Error('write EPROTO 80EC:error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:../rec_layer_s3.c:1601:SSL alert number 48\n'), { code: 'EPROTO' });
  assert.equal(remoteAlertText(fromRequest), 'remote error: tls: unknown certificate authority');
  assert.equal(remoteAlertText(new Error('connect ECONNREFUSED 127.0.0.1:2380')), undefined);
  assert.equal(remoteAlertText('alert'), undefined);
});
