import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EndpointPool, parseEndpoint } from '../../../server/proxy/endpoint-pool.js';

const a = { host: '10.0.0.1', port: 2379 };
const b = { host: '10.0.0.2', port: 2379 };
const c = { host: '10.0.0.3', port: 2379 };

void describe('EndpointPool', () => {
  void it('hands out the endpoints in turn', () => {
    const pool = new EndpointPool([a, b, c], 60_000);
    assert.deepEqual([pool.pick(), pool.pick(), pool.pick(), pool.pick()], [a, b, c, a]);
  });

  void it('skips a failed endpoint until a probe after the retry delay reaches it', () => {
    const pool = new EndpointPool([a, b], 1_000);
    pool.failed(a, 10_000);
    assert.deepEqual([pool.pick(), pool.pick()], [b, b]);
    assert.deepEqual(pool.due(10_999), [], 'not due before the delay');
    assert.deepEqual(pool.due(11_000), [a]);
    pool.stillDown(a, 11_000);
    assert.deepEqual(pool.due(11_500), [], 'a failed probe waits another delay');
    pool.recovered(a);
    assert.ok(pool.isActive(a));
    assert.deepEqual(new Set([pool.pick(), pool.pick()]), new Set([a, b]));
  });

  void it('answers undefined when every endpoint is down', () => {
    const pool = new EndpointPool([a], 1_000);
    pool.failed(a, 0);
    assert.equal(pool.pick(), undefined);
  });

  void it('a second failure report keeps the first time', () => {
    const pool = new EndpointPool([a], 1_000);
    pool.failed(a, 0);
    pool.failed(a, 900);
    assert.deepEqual(pool.due(1_000), [a]);
  });
});

void describe('parseEndpoint', () => {
  const cases: Array<[string, ReturnType<typeof parseEndpoint>]> = [
    ['127.0.0.1:2379', { host: '127.0.0.1', port: 2379 }],
    ['http://localhost:20000', { host: 'localhost', port: 20000 }],
    ['https://10.0.0.1:2379/', { host: '10.0.0.1', port: 2379 }],
    ['[::1]:2379', { host: '::1', port: 2379 }],
    ['http://[::1]:2379', { host: '::1', port: 2379 }],
    [':2379', { host: '', port: 2379 }],
    ['localhost', undefined],
    ['host:99999', undefined],
    ['host:port', undefined],
    ['http://', undefined],
  ];
  for (const [text, want] of cases) {
    void it(`${JSON.stringify(text)} → ${JSON.stringify(want)}`, () => assert.deepEqual(parseEndpoint(text), want));
  }
});
