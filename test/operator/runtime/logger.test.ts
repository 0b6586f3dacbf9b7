// The operator logger writes the members' JSON line format with name kvstore-operator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOperatorLogger } from '../../../operator/runtime/logger.js';

void test('one JSON object per line: level, ts, msg, name, then fields', () => {
  const lines: string[] = [];
  const log = createOperatorLogger({ level: 'debug', destination: { write: (s: string) => lines.push(s) } });
  log.child({ cluster: 'prod/demo' }).info({ member: 'demo-1', action: 'RestartMember' }, 'member restarting');
  log.debug({ key: 'prod/demo' }, 'queued');
  assert.equal(lines.length, 2);
  const first = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
  assert.deepEqual(Object.keys(first).slice(0, 3), ['level', 'ts', 'msg']);
  assert.equal(first['level'], 'info');
  assert.equal(first['msg'], 'member restarting');
  assert.equal(first['name'], 'kvstore-operator');
  assert.equal(first['cluster'], 'prod/demo');
  assert.equal(first['member'], 'demo-1');
  assert.equal((JSON.parse(lines[1] ?? '{}') as Record<string, unknown>)['level'], 'debug');
  assert.throws(() => createOperatorLogger({ level: 'loud' }));
});
