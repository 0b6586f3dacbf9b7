/** checkHealth (server/api/service/health-check.ts): alarms, then leader, then one quorum read with its timeout. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHealth, HEALTH_READ_TIMEOUT_MS, type HealthPorts } from '../../../server/api/service/health-check.js';
import { err, ok } from '../../../server/errors/domain-error.js';

function ports(over: Partial<HealthPorts>, reads: number[] = []): HealthPorts {
  return {
    alarms: () => [],
    leaderId: () => 7n,
    quorumRead: (timeoutMs) => {
      reads.push(timeoutMs);
      return Promise.resolve(ok(undefined));
    },
    messageOf: (e) => `msg:${e.kind}`,
    ...over,
  };
}

void test('healthy: no alarm, a leader, one quorum read within the health timeout', async () => {
  const reads: number[] = [];
  assert.deepEqual(await checkHealth(ports({}, reads)), { healthy: true, reason: '' });
  assert.deepEqual(reads, [HEALTH_READ_TIMEOUT_MS]);
});

void test('a quorum read that fails (no quorum: Timeout) makes the member unhealthy even with a leader known', async () => {
  const answer = await checkHealth(ports({ quorumRead: () => Promise.resolve(err('Timeout')) }));
  assert.deepEqual(answer, { healthy: false, reason: 'RANGE ERROR:msg:Timeout' });
});

void test('alarms and a missing leader are decided before any read', async () => {
  const reads: number[] = [];
  assert.deepEqual(await checkHealth(ports({ alarms: () => [2, 1] }, reads)), { healthy: false, reason: 'ALARM NOSPACE' });
  assert.deepEqual(await checkHealth(ports({ alarms: () => [2] }, reads)), { healthy: false, reason: 'ALARM CORRUPT' });
  assert.deepEqual(await checkHealth(ports({ alarms: () => [9] }, reads)), { healthy: false, reason: 'ALARM UNKNOWN' });
  assert.deepEqual(await checkHealth(ports({ leaderId: () => 0n }, reads)), { healthy: false, reason: 'RAFT NO LEADER' });
  assert.deepEqual(reads, []);
});
