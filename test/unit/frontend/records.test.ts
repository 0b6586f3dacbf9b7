// The front end ↔ core records: one turn's records in one buffer, read back in order, exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHeaders, encodeHeaders, FromCore, FromFront, readRecords, RecordWriter, type RecordView } from '../../../server/frontend/records.js';

interface Seen {
  kind: number;
  conn: number;
  stream: number;
  arg: number;
  payload: string;
}

function readAll(buffer: ArrayBuffer, length: number): Seen[] {
  const seen: Seen[] = [];
  readRecords(buffer, length, (r: RecordView) => seen.push({ kind: r.kind, conn: r.conn, stream: r.stream, arg: r.arg, payload: r.payload.toString('hex') }));
  return seen;
}

void test('records come back in order with their fields and payloads; the writer starts over after take()', () => {
  const w = new RecordWriter();
  assert.equal(w.empty, true);
  w.record(FromFront.Data, 7, 3, 0, Buffer.from('abc'));
  w.record(FromFront.ResetIn, 0xffff_ffff, 0x7fff_ffff, 8);
  w.record(FromCore.Consumed, 1, 1, 65_535, new Uint8Array(0));
  const turn = w.take();
  assert.equal(w.empty, true);
  assert.deepEqual(readAll(turn.buffer, turn.length), [
    { kind: FromFront.Data, conn: 7, stream: 3, arg: 0, payload: Buffer.from('abc').toString('hex') },
    { kind: FromFront.ResetIn, conn: 0xffff_ffff, stream: 0x7fff_ffff, arg: 8, payload: '' },
    { kind: FromCore.Consumed, conn: 1, stream: 1, arg: 65_535, payload: '' },
  ]);
  const next = w.take();
  assert.equal(next.length, 0);
  assert.notEqual(next.buffer, turn.buffer);
});

void test('a turn larger than the first buffer grows it and keeps every byte', () => {
  const w = new RecordWriter();
  const big = Buffer.alloc(100_000);
  for (let i = 0; i < big.length; i++) big[i] = i % 251;
  w.record(FromCore.Write, 1, 5, 0, Buffer.from('x'));
  w.record(FromCore.Write, 1, 5, 0, big);
  w.record(FromCore.Trailers, 1, 5, 0, Buffer.from('t'));
  const turn = w.take();
  const seen = readAll(turn.buffer, turn.length);
  assert.equal(seen.length, 3);
  assert.equal(seen[1]!.payload, big.toString('hex'));
  assert.equal(seen[2]!.payload, Buffer.from('t').toString('hex'));
});

void test('extras travel with the turn, by index, and make a turn non-empty', () => {
  const w = new RecordWriter();
  const index = w.extra({ remoteAddress: '127.0.0.1' });
  assert.equal(w.empty, false);
  w.record(FromFront.OpenGrpc, 1, 0, index);
  const turn = w.take();
  assert.deepEqual(turn.extras, [{ remoteAddress: '127.0.0.1' }]);
  assert.equal(readAll(turn.buffer, turn.length)[0]!.arg, 0);
});

void test('a cut record is an error, not a short read', () => {
  const w = new RecordWriter();
  w.record(FromFront.Data, 1, 1, 0, Buffer.from('hello'));
  const turn = w.take();
  assert.throws(() => readAll(turn.buffer, turn.length - 1), /cut record payload/);
  assert.throws(() => readAll(turn.buffer, 10), /cut record header/);
});

void test('header lists round-trip, including non-ASCII values and the never-index flag', () => {
  const fields = [
    { name: ':path', value: '/etcdserverpb.KV/Put', neverIndex: false },
    { name: 'token', value: 'é∑😀', neverIndex: true },
    { name: 'empty', value: '', neverIndex: false },
  ];
  assert.deepEqual(decodeHeaders(encodeHeaders(fields)), fields);
  assert.deepEqual(decodeHeaders(encodeHeaders([])), []);
});

void test('a header list is written against the previous one: unchanged fields are the same objects, changed ones are new', () => {
  const first = [
    { name: ':path', value: '/etcdserverpb.KV/Put', neverIndex: false },
    { name: 'grpc-timeout', value: '9999968u', neverIndex: false },
    { name: 'user-agent', value: 'grpc-go/1.26.0', neverIndex: false },
  ];
  const decodedFirst = decodeHeaders(encodeHeaders(first), []);
  const second = [first[0]!, { name: 'grpc-timeout', value: '9999912u', neverIndex: false }, { ...first[2]! }, { name: 'token', value: 't', neverIndex: true }];
  const payload = encodeHeaders(second, first);
  assert.ok(payload.length < encodeHeaders(second).length, 'unchanged fields take one byte');
  const decoded = decodeHeaders(payload, decodedFirst);
  assert.deepEqual(decoded, second);
  assert.equal(decoded[0], decodedFirst[0], 'an unchanged field is the previous field itself');
  assert.equal(decoded[2], decodedFirst[2]);
  assert.notEqual(decoded[1], decodedFirst[1]);
  // A shorter list after a longer one, and one whose fields moved, still come back exactly.
  assert.deepEqual(decodeHeaders(encodeHeaders([second[1]!], second), decoded), [second[1]]);
  assert.deepEqual(decodeHeaders(encodeHeaders([second[2]!, second[0]!], second), decoded), [second[2], second[0]]);
});

void test('a payload that refers to a field the previous list does not have is an error', () => {
  const fields = [{ name: 'a', value: '1', neverIndex: false }];
  assert.throws(() => decodeHeaders(encodeHeaders(fields, fields), []), /refers to a previous list of 0/);
});
