import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage, encodeMessage } from '../../../server/member/message-codec.js';
import { message, MessageType } from '../../../server/raft/index.js';
import { RaftMessage } from '../../../proto/gen/kvstore/raft.js';

void test('a message survives encode/decode with every field', () => {
  const m = message({
    type: MessageType.MsgApp,
    from: 0x8e9e05c52164694dn,
    to: 2n,
    term: 7n,
    logTerm: 6n,
    index: 41n,
    entries: [{ term: 7n, index: 42n, type: 0, data: Buffer.from('x') }],
    commit: 40n,
    reject: true,
    rejectHint: 3n,
    context: Buffer.from('ctx'),
    snapshot: { metadata: { index: 5n, term: 2n, confState: { voters: [1n, 2n], learners: [3n] } }, data: Buffer.from('snap') },
  });
  const back = decodeMessage(encodeMessage(m));
  assert.ok(back.ok);
  assert.deepEqual(back.value, m);
});

void test('zero fields stay zero and an absent snapshot stays absent', () => {
  const m = message({ type: MessageType.MsgHeartbeat, from: 1n, to: 2n, term: 1n });
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
    message({ type: MessageType.MsgHeartbeat, from: 1n, to: 2n, term: 1n }),
    message({ type: MessageType.MsgAppResp, from: big, to: 3n, term: 2n ** 40n, index: 300n, reject: true, rejectHint: 299n }),
    message({ type: MessageType.MsgReadIndex, from: big, to: big, context: Buffer.alloc(200, 9) }),
    message({
      type: MessageType.MsgApp,
      from: 5n,
      to: big,
      term: 9n,
      logTerm: 8n,
      index: 2n ** 33n,
      commit: 127n,
      entries: [
        { term: 9n, index: 2n ** 33n + 1n, type: 0, data: Buffer.alloc(0) },
        { term: 9n, index: 2n ** 33n + 2n, type: 1, data: Buffer.alloc(20, 1) },
        { term: 9n, index: 2n ** 33n + 3n, type: 0, data: Buffer.alloc(70_000, 2) },
      ],
    }),
    message({ type: MessageType.MsgApp }),
  ];
  for (const m of cases) {
    const generated = Buffer.from(
      RaftMessage.encode({ ...m, entries: [...m.entries], snapshot: undefined, type: m.type }).finish(),
    );
    assert.deepEqual(encodeMessage(m), generated, m.type);
    const back = decodeMessage(encodeMessage(m));
    assert.ok(back.ok);
    assert.deepEqual(back.value, m);
  }
});
