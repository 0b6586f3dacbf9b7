import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage, encodeMessage } from '../../../server/member/message-codec.js';
import { message, MessageType, type Message } from '../../../server/raft/index.js';
import { RaftMessage } from '../../../proto/gen/kvstore/raft.js';

/** The message as the generated encoder takes it (uint64 fields as bigint). */
const toWire = (m: Message): RaftMessage => ({
  ...m,
  term: BigInt(m.term),
  logTerm: BigInt(m.logTerm),
  index: BigInt(m.index),
  commit: BigInt(m.commit),
  rejectHint: BigInt(m.rejectHint),
  entries: m.entries.map((e) => ({ ...e, term: BigInt(e.term), index: BigInt(e.index) })),
  snapshot: undefined,
});

void test('a message survives encode/decode with every field', () => {
  const m = message({
    type: MessageType.MsgApp,
    from: 0x8e9e05c52164694dn,
    to: 2n,
    term: 7,
    logTerm: 6,
    index: 41,
    entries: [{ term: 7, index: 42, type: 0, data: Buffer.from('x') }],
    commit: 40,
    reject: true,
    rejectHint: 3,
    context: Buffer.from('ctx'),
    snapshot: { metadata: { index: 5, term: 2, confState: { voters: [1n, 2n], learners: [3n] } }, data: Buffer.from('snap') },
  });
  const back = decodeMessage(encodeMessage(m));
  assert.ok(back.ok);
  assert.deepEqual(back.value, m);
});

void test('zero fields stay zero and an absent snapshot stays absent', () => {
  const m = message({ type: MessageType.MsgHeartbeat, from: 1n, to: 2n, term: 1 });
  const back = decodeMessage(encodeMessage(m));
  assert.ok(back.ok);
  assert.deepEqual(back.value, m);
});

void test('garbage and unknown kinds are error values', () => {
  assert.equal(decodeMessage(Buffer.from([0xff, 0xff, 0xff])).ok, false);
  const m = encodeMessage(message({ type: MessageType.MsgHeartbeat }));
  const forged = Buffer.from(m.toString('latin1').replace('MsgHeartbeat', 'MsgXxxxxxxxx'), 'latin1');
  assert.equal(decodeMessage(forged).ok, false);
});

void test('messages without a snapshot encode to the generated encoder\'s exact bytes', () => {
  const big = 0xfedcba9876543210n;
  const cases = [
    message({ type: MessageType.MsgHeartbeat, from: 1n, to: 2n, term: 1 }),
    message({ type: MessageType.MsgAppResp, from: big, to: 3n, term: 2 ** 40, index: 300, reject: true, rejectHint: 299 }),
    message({ type: MessageType.MsgReadIndex, from: big, to: big, context: Buffer.alloc(200, 9) }),
    message({
      type: MessageType.MsgApp,
      from: 5n,
      to: big,
      term: 9,
      logTerm: 8,
      index: 2 ** 33,
      commit: 127,
      entries: [
        { term: 9, index: 2 ** 33 + 1, type: 0, data: Buffer.alloc(0) },
        { term: 9, index: 2 ** 33 + 2, type: 1, data: Buffer.alloc(20, 1) },
        { term: 9, index: 2 ** 33 + 3, type: 0, data: Buffer.alloc(70_000, 2) },
      ],
    }),
    message({ type: MessageType.MsgApp }),
  ];
  for (const m of cases) {
    const generated = Buffer.from(
      RaftMessage.encode(toWire(m)).finish(),
    );
    assert.deepEqual(encodeMessage(m), generated, m.type);
    const back = decodeMessage(encodeMessage(m));
    assert.ok(back.ok);
    assert.deepEqual(back.value, m);
  }
});

void test('a term or an index above 2^53 - 1 is a malformed frame; member ids keep all 64 bits', () => {
  const wireMsg = toWire(message({ type: MessageType.MsgApp, from: 2n ** 64n - 1n, to: 2n ** 53n + 1n, index: 5 }));
  const back = decodeMessage(Buffer.from(RaftMessage.encode(wireMsg).finish()));
  assert.ok(back.ok);
  assert.equal(back.value.from, 2n ** 64n - 1n);
  assert.equal(back.value.to, 2n ** 53n + 1n);
  const tooBig = Buffer.from(RaftMessage.encode({ ...wireMsg, index: 2n ** 53n }).finish());
  assert.equal(decodeMessage(tooBig).ok, false);
  const entryTooBig = Buffer.from(
    RaftMessage.encode({ ...wireMsg, entries: [{ term: 1n, index: 2n ** 60n, type: 0, data: Buffer.alloc(0) }] }).finish(),
  );
  assert.equal(decodeMessage(entryTooBig).ok, false);
});
