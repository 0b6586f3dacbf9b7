import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Network } from './harness/network.js';

test('smoke: 3 nodes elect, replicate, commit', () => {
  const trace: string[] = [];
  const net = Network.cluster(3, {}, trace);
  net.get(1n).node.campaign();
  net.stabilize();
  assert.equal(net.get(1n).node.status().raftState, 'Leader');
  assert.ok(net.get(1n).node.propose(Buffer.from('a')).ok);
  net.stabilize();
  console.log(trace.join('\n'));
  for (const id of net.ids()) assert.deepEqual(net.get(id).applied.map((a) => a.data), ['', 'a']);
});
