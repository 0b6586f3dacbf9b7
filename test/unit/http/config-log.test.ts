import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, fakeServices, serve } from './helpers.js';

void test('PUT /config/local/log sets the level; bad bodies get the reference messages', async () => {
  const levels: string[] = [];
  const served = await serve(fakeServices(), { logLevel: { set: (l) => levels.push(l), deprecated: false } });
  try {
    const ok = await call(served.port, 'PUT', '/config/local/log', '{"level":"DEBUG"}');
    assert.equal(ok.status, 204);
    assert.deepEqual(levels, ['debug']);
    const badLevel = await call(served.port, 'PUT', '/config/local/log', '{"Level":"LOUD"}');
    assert.equal(badLevel.status, 400);
    assert.equal(badLevel.body, '{"message":"Invalid log level LOUD"}');
    const badJson = await call(served.port, 'PUT', '/config/local/log', '{');
    assert.equal(badJson.status, 400);
    assert.equal(badJson.body, '{"message":"Invalid json body"}');
    const get = await call(served.port, 'GET', '/config/local/log');
    assert.equal(get.status, 405);
    assert.deepEqual(levels, ['debug']);
  } finally {
    await served.close();
  }
});
