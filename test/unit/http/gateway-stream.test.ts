/**
 * JSON gateway, streams: chunked `{"result":…}\n` lines, the mid-stream error chunk, HTTP
 * status when the error comes first, and the lifetimes of watch sessions, keep-alive streams
 * and snapshot iterations.
 */
import { request, type IncomingMessage } from 'node:http';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { fail, ok } from '../../../server/errors/domain-error.js';
import type { WatchSession } from '../../../server/api/services.js';
import { b64, fakeServices, serve } from './helpers.js';
import { openStream } from './stream-client.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function fakeWatch() {
  const requests: pb.WatchRequest[] = [];
  const closed = deferred();
  const openWatch = (send: (resp: pb.WatchResponse) => void): WatchSession => ({
    request(req) {
      requests.push(req);
      const u = req.requestUnion;
      if (u?.$case === 'createRequest') {
        send(pb.WatchResponse.fromJSON({ header: { revision: '1' }, created: true }));
        send(
          pb.WatchResponse.fromJSON({
            header: { revision: '2' },
            events: [{ kv: { key: b64('foo'), value: b64('bar'), create_revision: '2', mod_revision: '2', version: '1' } }],
          }),
        );
      } else if (u?.$case === 'cancelRequest') {
        send(pb.WatchResponse.fromJSON({ header: { revision: '2' }, watch_id: String(u.value.watchId), canceled: true }));
      }
    },
    close: () => closed.resolve(),
  });
  return { requests, closed: closed.promise, openWatch };
}

void test('watch: bidirectional over one HTTP/1.1 request; session closed when the client leaves', async () => {
  const w = fakeWatch();
  const s = await serve(fakeServices({ watch: { openWatch: w.openWatch } }));
  try {
    const st = openStream(s.port, '/v3/watch');
    st.write(JSON.stringify({ create_request: { key: b64('foo'), start_revision: '2' } }));
    const res = await st.response;
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(await st.nextLine(), '{"result":{"header":{"revision":"1"},"created":true}}');
    assert.equal(
      await st.nextLine(),
      '{"result":{"header":{"revision":"2"},"events":[{"kv":{"key":"Zm9v","create_revision":"2","mod_revision":"2","version":"1","value":"YmFy"}}]}}',
    );
    // a second message on the still-open request body, camelCase this time
    st.write('\n{"cancelRequest":{"watchId":"0"}}');
    assert.equal(await st.nextLine(), '{"result":{"header":{"revision":"2"},"canceled":true}}');
    assert.equal(w.requests.length, 2);
    assert.equal(w.requests[0]?.requestUnion?.$case, 'createRequest');
    st.abort();
    await w.closed;
  } finally {
    await s.close();
  }
});

void test('watch: the end of the request body does not end the stream', async () => {
  const w = fakeWatch();
  const s = await serve(fakeServices({ watch: { openWatch: w.openWatch } }));
  try {
    const st = openStream(s.port, '/v3/watch');
    st.endBody('{"create_request":{"key":"Zm9v"}}{"progress_request":{}}');
    await st.nextLine();
    await st.nextLine();
    assert.equal(w.requests.length, 2);
    assert.equal(w.requests[1]?.requestUnion?.$case, 'progressRequest');
    st.abort();
    await w.closed;
  } finally {
    await s.close();
  }
});

void test('watch: a client that ends its connection after a whole body ends the watch (Go cancels the request on EOF)', async () => {
  const w = fakeWatch();
  const s = await serve(fakeServices({ watch: { openWatch: w.openWatch } }), {}, true);
  try {
    const body = '{"create_request":{"key":"Zm9v"}}';
    const req = request({ host: '127.0.0.1', port: s.port, method: 'POST', path: '/v3/watch', agent: false, headers: { 'content-length': String(body.length) } });
    req.on('error', () => undefined);
    const res = await new Promise<IncomingMessage>((resolve) => {
      req.on('response', resolve);
      req.end(body);
    });
    res.resume();
    assert.equal(res.statusCode, 200);
    req.socket?.end(); // FIN: the client is gone, its read side still open
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('session still open after 5 s'), 5000)));
    assert.equal(await Promise.race([w.closed.then(() => 'closed'), bound]), 'closed');
    clearTimeout(timer);
    req.destroy();
  } finally {
    await s.close();
  }
});

void test('watch: an unreadable first message refuses the call (unary-style body, code 2, as grpc-gateway)', async () => {
  const w = fakeWatch();
  const s = await serve(fakeServices({ watch: { openWatch: w.openWatch } }));
  try {
    const st = openStream(s.port, '/v3/watch');
    st.endBody('{"create_request": nope}');
    const res = await st.response;
    assert.equal(res.statusCode, 500);
    assert.equal(res.headers['transfer-encoding'], undefined);
    const body = JSON.parse(await st.rest()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['error', 'message', 'code']);
    assert.equal(body.code, 2);
    assert.equal(body.error, "invalid character 'o' in literal null (expecting 'u')");
    await w.closed;
  } finally {
    await s.close();
  }
});

void test('lease keepalive: a later unreadable message ends the requests; answers so far are kept', async () => {
  const seen: bigint[] = [];
  const s = await serve(
    fakeServices({
      lease: {
        keepAlive: async (req) => {
          seen.push(req.ID);
          return ok({ header: undefined, ID: req.ID, TTL: 5n });
        },
      },
    }),
  );
  try {
    const st = openStream(s.port, '/v3/lease/keepalive');
    st.endBody('{"ID":"1"}{"ID":{"x":1}} {"ID":"3"}');
    assert.equal((await st.response).statusCode, 200);
    assert.equal(await st.rest(), '{"result":{"ID":"1","TTL":"5"}}\n');
    assert.deepEqual(seen, [1n]);
  } finally {
    await s.close();
  }
});

void test('lease keepalive: one result per request, in order; ends with the request body', async () => {
  const s = await serve(
    fakeServices({
      lease: { keepAlive: async (req) => ok({ header: { clusterId: 0n, memberId: 0n, revision: 3n, raftTerm: 0n }, ID: req.ID, TTL: 60n }) },
    }),
  );
  try {
    const st = openStream(s.port, '/v3/lease/keepalive');
    st.endBody('{"ID":"1"}\n{"ID":2}');
    assert.equal((await st.response).statusCode, 200);
    assert.equal(
      await st.rest(),
      '{"result":{"header":{"revision":"3"},"ID":"1","TTL":"60"}}\n{"result":{"header":{"revision":"3"},"ID":"2","TTL":"60"}}\n',
    );
  } finally {
    await s.close();
  }
});

void test('lease keepalive: a domain error mid-stream ends it with the error chunk (status stays 200)', async () => {
  let n = 0;
  const s = await serve(
    fakeServices({
      lease: {
        keepAlive: async (req) =>
          ++n === 1 ? ok({ header: undefined, ID: req.ID, TTL: 10n }) : fail({ kind: 'NoLeader' }),
      },
    }),
  );
  try {
    const st = openStream(s.port, '/v3/lease/keepalive');
    st.endBody('{"ID":"5"}{"ID":"5"}{"ID":"5"}');
    assert.equal((await st.response).statusCode, 200);
    assert.equal(await st.nextLine(), '{"result":{"ID":"5","TTL":"10"}}');
    assert.equal(
      await st.rest(),
      '{"error":{"grpc_code":14,"http_code":503,"message":"etcdserver: no leader","http_status":"Service Unavailable"}}',
    );
    assert.equal(n, 2);
  } finally {
    await s.close();
  }
});

void test('lease keepalive: an error before any result sets the HTTP status', async () => {
  const s = await serve(fakeServices({ lease: { keepAlive: async () => fail({ kind: 'NoLeader' }) } }));
  try {
    const st = openStream(s.port, '/v3/lease/keepalive');
    st.endBody('{"ID":"5"}');
    assert.equal((await st.response).statusCode, 503);
    assert.equal(JSON.parse(await st.rest()).error.grpc_code, 14);
  } finally {
    await s.close();
  }
});

void test('snapshot: every chunk is a result line; the response ends with the iterable', async () => {
  const s = await serve(
    fakeServices({
      maintenance: {
        snapshot: async function* () {
          yield { header: undefined, remainingBytes: 3n, blob: Buffer.from('abc') };
          yield { header: undefined, remainingBytes: 0n, blob: Buffer.from('def') };
        },
      },
    }),
  );
  try {
    const st = openStream(s.port, '/v3/maintenance/snapshot');
    st.endBody('{}');
    assert.equal((await st.response).statusCode, 200);
    assert.equal(await st.rest(), '{"result":{"remaining_bytes":"3","blob":"YWJj"}}\n{"result":{"blob":"ZGVm"}}\n');
  } finally {
    await s.close();
  }
});

void test('snapshot: an iterable that throws mid-stream ends with a code 2 error chunk', async () => {
  const s = await serve(
    fakeServices({
      maintenance: {
        snapshot: async function* () {
          yield { header: undefined, remainingBytes: 3n, blob: Buffer.from('abc') };
          throw new Error('backend closed');
        },
      },
    }),
  );
  try {
    const st = openStream(s.port, '/v3/maintenance/snapshot');
    st.endBody('');
    assert.equal((await st.response).statusCode, 200);
    await st.nextLine();
    assert.deepEqual(JSON.parse(await st.rest()), {
      error: { grpc_code: 2, http_code: 500, message: 'backend closed', http_status: 'Internal Server Error' },
    });
  } finally {
    await s.close();
  }
});

void test('snapshot: a client that leaves stops the iteration', async () => {
  const stopped = deferred();
  const s = await serve(
    fakeServices({
      maintenance: {
        snapshot: async function* () {
          try {
            for (let i = 0; ; i++) {
              yield { header: undefined, remainingBytes: 1n, blob: Buffer.alloc(64 * 1024, i) };
              await new Promise((r) => setImmediate(r));
            }
          } finally {
            stopped.resolve();
          }
        },
      },
    }),
  );
  try {
    const st = openStream(s.port, '/v3/maintenance/snapshot');
    st.endBody('{}');
    await st.nextLine();
    st.abort();
    await stopped.promise;
  } finally {
    await s.close();
  }
});
