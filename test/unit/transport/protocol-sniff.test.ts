/** sniffProtocol: the HTTP/2 preface decides gRPC; a method token and a space decide HTTP/1.x; anything else is neither. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HTTP2_PREFACE, Protocol, sniffProtocol } from '../../../server/transport/protocol-sniff.js';

void test('full preface is h2, also with frames after it', () => {
  assert.equal(sniffProtocol(HTTP2_PREFACE), Protocol.H2);
  assert.equal(sniffProtocol(Buffer.concat([HTTP2_PREFACE, Buffer.from([0, 0, 0, 4])])), Protocol.H2);
});

void test('a strict prefix of the preface is undecided', () => {
  assert.equal(sniffProtocol(Buffer.alloc(0)), Protocol.Undecided);
  assert.equal(sniffProtocol(HTTP2_PREFACE.subarray(0, 1)), Protocol.Undecided);
  assert.equal(sniffProtocol(HTTP2_PREFACE.subarray(0, 23)), Protocol.Undecided);
});

void test('HTTP/1.x requests are decided once a method token and a space came', () => {
  assert.equal(sniffProtocol(Buffer.from('G')), Protocol.Undecided);
  assert.equal(sniffProtocol(Buffer.from('GET')), Protocol.Undecided);
  assert.equal(sniffProtocol(Buffer.from('GET ')), Protocol.Http1);
  assert.equal(sniffProtocol(Buffer.from('GET /version HTTP/1.1\r\n')), Protocol.Http1);
  assert.equal(sniffProtocol(Buffer.from('POST /v3/kv/put HTTP/1.1\r\n')), Protocol.Http1);
  assert.equal(sniffProtocol(Buffer.from('PR /x HTTP/1.1\r\n')), Protocol.Http1);
});

void test('a broken preface, and bytes no request line starts with, are neither', () => {
  assert.equal(sniffProtocol(Buffer.from('PRI * HTTP/1.1\r\n')), Protocol.Neither);
  assert.equal(sniffProtocol(Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\rQ')), Protocol.Neither);
  assert.equal(sniffProtocol(Buffer.from('PRI x')), Protocol.Neither);
  assert.equal(sniffProtocol(Buffer.from([0x16, 0x03, 0x01, 0x02])), Protocol.Neither, 'a TLS ClientHello');
  assert.equal(sniffProtocol(Buffer.from(' GET /')), Protocol.Neither);
  assert.equal(sniffProtocol(Buffer.from('GET\r\n')), Protocol.Neither);
  assert.equal(sniffProtocol(Buffer.from('A'.repeat(25))), Protocol.Neither);
  assert.equal(sniffProtocol(Buffer.from('INVALID CONNECTION PREFACE')), Protocol.Http1, 'a method token and a space: the HTTP/1.1 server refuses it');
});
