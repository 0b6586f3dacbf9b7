/** sniffProtocol: the HTTP/2 preface decides gRPC; any other first bytes decide HTTP/1.x. */
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

void test('HTTP/1.x requests are decided at the first differing byte', () => {
  assert.equal(sniffProtocol(Buffer.from('G')), Protocol.Http1);
  assert.equal(sniffProtocol(Buffer.from('GET /version HTTP/1.1\r\n')), Protocol.Http1);
  assert.equal(sniffProtocol(Buffer.from('POST /v3/kv/put HTTP/1.1\r\n')), Protocol.Http1);
  assert.equal(sniffProtocol(Buffer.from('PRI * HTTP/1.1\r\n')), Protocol.Http1);
});
