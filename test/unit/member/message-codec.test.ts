import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage, encodeMessage } from '../../../server/member/message-codec.js';
import { message, MessageType } from '../../../server/raft/index.js';

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
