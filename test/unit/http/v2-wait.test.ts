/**
 * GET /v2/keys/…?wait=true: the long-poll and the stream, against the in-memory port.
 * Shapes mirror etcd 3.4.23: 200 + headers flushed at once (X-Etcd-Index = index when the
 * watch was made), one JSON line per event; 401 as a 400 v2 error.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapLikeEtcd, createMemoryPort, type MemoryPort } from '../v2store/memory-port.js';
import { openWait, send, serveV2, type ServedV2 } from '../v2store/serve-v2.js';

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cond(), 'condition not reached');
}

void describe('wait', () => {
  let port: MemoryPort;
  let served: ServedV2;
  before(async () => {
    port = createMemoryPort();
    bootstrapLikeEtcd(port);
    served = await serveV2(port);
  });
  after(() => served.close());

  void it('long-polls: headers at once, then the next event on the key, then the end', async () => {
    const w = openWait(served.port, '/v2/keys/w1?wait=true');
    const res = await w.headers;
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.equal(res.headers['x-etcd-index'], '3');
    assert.equal(res.headers['x-raft-term'], '2');
    assert.equal(res.headers['x-etcd-cluster-id'], 'd1cfaf999eb97a2a');
    assert.equal(port.store.watcherCount(), 1);
    await send(served.port, 'PUT', '/v2/keys/other', 'value=x');
    await send(served.port, 'PUT', '/v2/keys/w1', 'value=hello');
    assert.equal(await w.next(), '{"action":"set","node":{"key":"/w1","value":"hello","modifiedIndex":5,"createdIndex":5}}\n');
    assert.equal(await w.next(), undefined);
    assert.equal(port.store.watcherCount(), 0);
  });

  void it('answers from the history with waitIndex', async () => {
    const w = openWait(served.port, '/v2/keys/w1?wait=true&waitIndex=4');
    assert.equal((await w.headers).headers['x-etcd-index'], '5');
    assert.equal(await w.next(), '{"action":"set","node":{"key":"/w1","value":"hello","modifiedIndex":5,"createdIndex":5}}\n');
    assert.equal(await w.next(), undefined);
  });

  void it('recursive waits skip hidden keys', async () => {
    const w = openWait(served.port, '/v2/keys/wd?wait=true&recursive=true');
    await w.headers;
    await send(served.port, 'PUT', '/v2/keys/wd/_x', 'value=h');
    await send(served.port, 'PUT', '/v2/keys/wd/y', 'value=h');
    assert.equal(await w.next(), '{"action":"set","node":{"key":"/wd/y","value":"h","modifiedIndex":7,"createdIndex":7}}\n');
  });

  void it('a deleted directory answers the waits on keys inside it', async () => {
    await send(served.port, 'PUT', '/v2/keys/dir/sub/c', 'value=4'); // 8
    const w = openWait(served.port, '/v2/keys/dir/sub/c?wait=true');
    await w.headers;
    await send(served.port, 'DELETE', '/v2/keys/dir?recursive=true'); // 9
    assert.equal(await w.next(), '{"action":"delete","node":{"key":"/dir","dir":true,"modifiedIndex":9,"createdIndex":8},"prevNode":{"key":"/dir","dir":true,"modifiedIndex":8,"createdIndex":8}}\n');
  });

  void it('streams until the client goes away, then the watcher is gone', async () => {
    const w = openWait(served.port, '/v2/keys/s1?wait=true&stream=true');
    await w.headers;
    await send(served.port, 'PUT', '/v2/keys/s1', 'value=a');
    assert.equal(await w.next(), '{"action":"set","node":{"key":"/s1","value":"a","modifiedIndex":10,"createdIndex":10}}\n');
    await send(served.port, 'PUT', '/v2/keys/s1', 'value=b');
    assert.equal(
      await w.next(),
      '{"action":"set","node":{"key":"/s1","value":"b","modifiedIndex":11,"createdIndex":11},"prevNode":{"key":"/s1","value":"a","modifiedIndex":10,"createdIndex":10}}\n',
    );
    assert.equal(port.store.watcherCount(), 1);
    w.abort();
    await until(() => port.store.watcherCount() === 0);
  });

  void it('a client leaving before any event cancels its watcher', async () => {
    const w = openWait(served.port, '/v2/keys/never?wait=true');
    await w.headers;
    assert.equal(port.store.watcherCount(), 1);
    w.abort();
    await until(() => port.store.watcherCount() === 0);
  });

  void it('expiry answers a wait with an expire event', async () => {
    await send(served.port, 'PUT', '/v2/keys/exp', 'value=v&ttl=1'); // 12
    const w = openWait(served.port, '/v2/keys/exp?wait=true');
    await w.headers;
    port.advance(1000); // 13
    assert.equal(
      await w.next(),
      '{"action":"expire","node":{"key":"/exp","modifiedIndex":13,"createdIndex":12},"prevNode":{"key":"/exp","value":"v","expiration":"2026-11-21T09:00:01Z","modifiedIndex":12,"createdIndex":12}}\n',
    );
  });

  void it('quorum=true turns a wait into a quorum read (etcd)', async () => {
    const r = await send(served.port, 'GET', '/v2/keys/w1?wait=true&quorum=true');
    assert.equal(r.status, 200);
    assert.equal(r.headers['transfer-encoding'], undefined);
    assert.equal(r.body, '{"action":"get","node":{"key":"/w1","value":"hello","modifiedIndex":5,"createdIndex":5}}\n');
  });
});

void describe('wait on a cleared index', () => {
  void it('is 400 with error 401 (same numbers as etcd after 1029 writes)', async () => {
    const port = createMemoryPort();
    bootstrapLikeEtcd(port);
    for (let i = 1; i <= 1029; i++) port.store.set('/1/bulk', { value: String(i) }, port.nowMs);
    const served = await serveV2(port);
    try {
      const r = await send(served.port, 'GET', '/v2/keys/bulk?wait=true&waitIndex=1');
      assert.equal(r.status, 400);
      assert.equal(r.headers['x-etcd-index'], '1032');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.body, '{"errorCode":401,"message":"The event in requested index is outdated and cleared","cause":"the requested history has been cleared [33/1]","index":1032}\n');
      const w = openWait(served.port, '/v2/keys/bulk?wait=true&waitIndex=40');
      assert.equal(
        await w.next(),
        '{"action":"set","node":{"key":"/bulk","value":"37","modifiedIndex":40,"createdIndex":40},"prevNode":{"key":"/bulk","value":"36","modifiedIndex":39,"createdIndex":39}}\n',
      );
    } finally {
      await served.close();
    }
  });
});
