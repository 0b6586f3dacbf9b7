/**
 * JSON gateway, unary routes: request JSON → message → fake Services → gateway JSON, error
 * bodies and HTTP statuses, prefixes, methods, malformed input.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { fail, ok } from '../../../server/errors/domain-error.js';
import { b64, call, fakeServices, post, serve } from './helpers.js';

const header = { cluster_id: '14841639068965178418', member_id: '10276657743932975437', revision: '2', raft_term: '3' };

void test('put: base64 request in, gateway JSON out (int64 as strings, defaults omitted)', async () => {
  let seen: pb.PutRequest | undefined;
  const s = await serve(
    fakeServices({
      kv: {
        put: async (req) => {
          seen = req;
          return ok(pb.PutResponse.fromJSON({ header }));
        },
      },
    }),
  );
  try {
    const r = await post(s.port, '/v3/kv/put', JSON.stringify({ key: b64('foo'), value: b64('bar'), prev_kv: true }));
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(
      r.body,
      '{"header":{"cluster_id":"14841639068965178418","member_id":"10276657743932975437","revision":"2","raft_term":"3"}}',
    );
    assert.equal(seen?.key.toString(), 'foo');
    assert.equal(seen?.value.toString(), 'bar');
    assert.equal(seen?.prevKv, true);
    // the alias prefix of the default setup (/v3beta → /v3)
    assert.equal((await post(s.port, '/v3beta/kv/put', '{}')).status, 200);
  } finally {
    await s.close();
  }
});

void test('range: camelCase input accepted; kvs with create_revision/mod_revision as strings', async () => {
  let seen: pb.RangeRequest | undefined;
  const s = await serve(
    fakeServices({
      kv: {
        range: async (req) => {
          seen = req;
          return ok(
            pb.RangeResponse.fromJSON({
              header: { revision: '5' },
              kvs: [{ key: b64('a'), value: b64('1'), create_revision: '2', mod_revision: '5', version: '3' }],
              count: '1',
            }),
          );
        },
      },
    }),
  );
  try {
    const r = await post(s.port, '/v3/kv/range', JSON.stringify({ key: b64('a'), rangeEnd: b64('b'), keysOnly: true, revision: 4 }));
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.body), {
      header: { revision: '5' },
      kvs: [{ key: 'YQ==', create_revision: '2', mod_revision: '5', version: '3', value: 'MQ==' }],
      count: '1',
    });
    assert.equal(seen?.rangeEnd.toString(), 'b');
    assert.equal(seen?.keysOnly, true);
    assert.equal(seen?.revision, 4n);
  } finally {
    await s.close();
  }
});

void test('txn: nested compare and request ops, enum names, camelCase or proto names', async () => {
  let seen: pb.TxnRequest | undefined;
  const s = await serve(
    fakeServices({
      kv: {
        txn: async (req) => {
          seen = req;
          return ok(pb.TxnResponse.fromJSON({ header: { revision: '7' }, succeeded: true, responses: [{ response_put: { header: { revision: '7' } } }] }));
        },
      },
    }),
  );
  try {
    const body = {
      compare: [{ result: 'EQUAL', target: 'VALUE', key: b64('k'), value: b64('v') }],
      success: [{ requestPut: { key: b64('k'), value: b64('w') } }],
      failure: [{ request_range: { key: b64('k') } }],
    };
    const r = await post(s.port, '/v3/kv/txn', JSON.stringify(body));
    assert.equal(r.status, 200);
    assert.equal(r.body, '{"header":{"revision":"7"},"succeeded":true,"responses":[{"response_put":{"header":{"revision":"7"}}}]}');
    assert.equal(seen?.compare[0]?.result, pb.Compare_CompareResult.EQUAL);
    assert.equal(seen?.compare[0]?.target, pb.Compare_CompareTarget.VALUE);
    assert.equal(seen?.success[0]?.request?.$case, 'requestPut');
    assert.equal(seen?.failure[0]?.request?.$case, 'requestRange');
  } finally {
    await s.close();
  }
});

void test('lease routes: TTL as number or string, both /lease and /kv/lease spellings', async () => {
  const ttls: bigint[] = [];
  const s = await serve(
    fakeServices({
      lease: {
        leaseGrant: async (req) => {
          ttls.push(req.TTL);
          return ok({ header: undefined, ID: 7587862072907485706n, TTL: req.TTL, error: '' });
        },
        leaseTimeToLive: async (req) => ok({ header: undefined, ID: req.ID, TTL: -1n, grantedTTL: 0n, keys: [] }),
      },
    }),
  );
  try {
    const g1 = await post(s.port, '/v3/lease/grant', '{"TTL":60}');
    const g2 = await post(s.port, '/v3/lease/grant', '{"TTL":"30","ID":"0"}');
    assert.equal(g1.body, '{"ID":"7587862072907485706","TTL":"60"}');
    assert.equal(g2.status, 200);
    assert.deepEqual(ttls, [60n, 30n]);
    for (const path of ['/v3/lease/timetolive', '/v3/kv/lease/timetolive']) {
      const t = await post(s.port, path, '{"ID":"42"}');
      assert.equal(t.body, '{"ID":"42","TTL":"-1"}', path);
    }
  } finally {
    await s.close();
  }
});

void test('cluster and maintenance routes reach their service', async () => {
  const s = await serve(
    fakeServices({
      cluster: {
        memberList: async () =>
          ok(pb.MemberListResponse.fromJSON({ members: [{ ID: '1', name: 'm1', peerURLs: ['http://a:2380'], clientURLs: ['http://a:2379'] }] })),
      },
      maintenance: {
        status: async () => ok(pb.StatusResponse.fromJSON({ version: '3.4.45', dbSize: '20480', leader: '1', raftIndex: '9' })),
        hashKV: async () => ok(pb.HashKVResponse.fromJSON({ hash: 12345, compact_revision: '3' })),
      },
    }),
  );
  try {
    const m = await post(s.port, '/v3/cluster/member/list', '{}');
    assert.deepEqual(JSON.parse(m.body), {
      members: [{ ID: '1', name: 'm1', peerURLs: ['http://a:2380'], clientURLs: ['http://a:2379'] }],
    });
    const st = await post(s.port, '/v3/maintenance/status', '');
    assert.deepEqual(JSON.parse(st.body), { version: '3.4.45', dbSize: '20480', leader: '1', raftIndex: '9' });
    const h = await post(s.port, '/v3/maintenance/hashkv', '{"revision":"0"}');
    assert.deepEqual(JSON.parse(h.body), { hash: 12345, compact_revision: '3' });
  } finally {
    await s.close();
  }
});

void test('domain errors: body {error,message,code} in that order, HTTP status from the gRPC code', async () => {
  const s = await serve(
    fakeServices({
      kv: { range: async () => fail({ kind: 'Compacted', compactRevision: 3n }) },
      lease: {
        leaseRevoke: async () => fail({ kind: 'NoLeader' }),
        leaseLeases: async () => fail({ kind: 'LeaseNotFound' }),
        leaseGrant: async () => fail({ kind: 'LeaseExists' }),
      },
    }),
  );
  try {
    const r = await post(s.port, '/v3/kv/range', JSON.stringify({ key: b64('a'), revision: 1 }));
    assert.equal(r.status, 400);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(
      r.body,
      '{"error":"etcdserver: mvcc: required revision has been compacted","message":"etcdserver: mvcc: required revision has been compacted","code":11}',
    );
    const n = await post(s.port, '/v3/kv/lease/revoke', '{"ID":"1"}');
    assert.equal(n.status, 503);
    assert.deepEqual(JSON.parse(n.body), { error: 'etcdserver: no leader', code: 14, message: 'etcdserver: no leader' });
    assert.equal((await post(s.port, '/v3/lease/leases', '{}')).status, 404);
    // FailedPrecondition is 412, as grpc-gateway v1 (etcd 3.4/3.5) maps it
    const pre = await post(s.port, '/v3/lease/grant', '{"ID":"1","TTL":"5"}');
    assert.equal(pre.status, 412);
    assert.equal((JSON.parse(pre.body) as { code: number }).code, 9);
  } finally {
    await s.close();
  }
});

void test("malformed input: bad JSON, non-object, bad int64 → 400 code 3 with Go's message", async () => {
  const s = await serve(fakeServices({ kv: { put: async () => ok(pb.PutResponse.fromJSON({})) } }));
  try {
    for (const [body, expected] of [
      ['{"key":', 'unexpected EOF'],
      ['[1,2]', 'json: cannot unmarshal array into Go value of type map[string]json.RawMessage'],
      ['"x"', 'json: cannot unmarshal string into Go value of type map[string]json.RawMessage'],
      ['{"key":"Zm9v","lease":"abc"}', "invalid character 'a' looking for beginning of value"],
      ['{"key":"Zm9v","lease":1.5}', 'json: cannot unmarshal number 1.5 into Go value of type int64'],
      ['{"key":"Zm9v!"}', 'illegal base64 data at input byte 4'],
    ] as const) {
      const r = await post(s.port, '/v3/kv/put', body);
      assert.equal(r.status, 400, body);
      const parsed = JSON.parse(r.body) as { error: string; code: number; message: string };
      assert.equal(parsed.code, 3);
      assert.equal(parsed.error, expected);
      assert.equal(parsed.message, parsed.error);
      assert.deepEqual(Object.keys(parsed), ['error', 'message', 'code']);
    }
    // an empty body is the empty request
    assert.equal((await post(s.port, '/v3/kv/put', '')).status, 200);
  } finally {
    await s.close();
  }
});

void test('a body above the limit is refused with code 8 (429)', async () => {
  const s = await serve(fakeServices({ kv: { put: async () => ok(pb.PutResponse.fromJSON({})) } }), { maxBodyBytes: 64 });
  try {
    const r = await post(s.port, '/v3/kv/put', JSON.stringify({ key: b64('k'), value: b64('x'.repeat(200)) }));
    assert.equal(r.status, 429);
    assert.equal((JSON.parse(r.body) as { code: number }).code, 8);
  } finally {
    await s.close();
  }
});

void test('a service that throws is answered 500 with code 2', async () => {
  const s = await serve(
    fakeServices({
      kv: {
        put: () => {
          throw new Error('broken invariant');
        },
      },
    }),
  );
  try {
    const r = await post(s.port, '/v3/kv/put', '{}');
    assert.equal(r.status, 500);
    assert.deepEqual(JSON.parse(r.body), { error: 'broken invariant', code: 2, message: 'broken invariant' });
  } finally {
    await s.close();
  }
});

void test('methods and unknown paths: plain 405 (no Allow), 404 under and outside the prefix', async () => {
  const s = await serve(fakeServices());
  try {
    const g = await call(s.port, 'GET', '/v3/kv/put');
    assert.equal(g.status, 405);
    assert.equal(g.headers.allow, undefined);
    assert.equal(g.body, 'Method Not Allowed\n');
    const nf = await post(s.port, '/v3/kv/nothing', '{}');
    assert.equal(nf.status, 404);
    assert.equal(nf.body, 'Not Found\n');
    const other = await call(s.port, 'GET', '/nothing');
    assert.equal(other.status, 404);
    assert.equal(other.body, '404 page not found\n');
  } finally {
    await s.close();
  }
});

void test('auth and downgrade routes answer Unimplemented (501, code 12)', async () => {
  const s = await serve(fakeServices());
  try {
    for (const path of ['/v3/auth/enable', '/v3/auth/user/add', '/v3/maintenance/downgrade']) {
      const r = await post(s.port, path, '{}');
      assert.equal(r.status, 501, path);
      const body = JSON.parse(r.body) as { code: number; error: string };
      assert.equal(body.code, 12);
    }
    const r = await post(s.port, '/v3/auth/authenticate', '{"name":"root","password":"x"}');
    assert.equal((JSON.parse(r.body) as { error: string }).error, 'unknown method /etcdserverpb.Auth/Authenticate');
  } finally {
    await s.close();
  }
});

void test('prefix is a parameter: aliases are rewritten, redirect prefixes answer 307', async () => {
  const put = async (): Promise<ReturnType<typeof ok<pb.PutResponse>>> => ok(pb.PutResponse.fromJSON({ header: { revision: '9' } }));
  const s = await serve(fakeServices({ kv: { put } }), {
    gatewayPrefix: '/v3beta',
    gatewayAliases: ['/v3alpha/'],
    gatewayRedirects: ['/v3'],
  });
  try {
    assert.equal((await post(s.port, '/v3beta/kv/put', '{}')).body, '{"header":{"revision":"9"}}');
    assert.equal((await post(s.port, '/v3alpha/kv/put', '{}')).body, '{"header":{"revision":"9"}}');
    const red = await post(s.port, '/v3/kv/put?x=1', '{}');
    assert.equal(red.status, 307);
    assert.equal(red.headers.location, '/v3beta/kv/put?x=1');
    assert.equal((await post(s.port, '/v3betax/kv/put', '{}')).status, 404);
  } finally {
    await s.close();
  }
});

void test('CORS: any origin on every response; OPTIONS answered 200 empty on any path', async () => {
  const s = await serve(fakeServices({ kv: { put: async () => ok(pb.PutResponse.fromJSON({})) } }));
  try {
    for (const r of [await post(s.port, '/v3/kv/put', '{}'), await call(s.port, 'GET', '/version'), await call(s.port, 'OPTIONS', '/v3/kv/put')]) {
      assert.equal(r.headers['access-control-allow-origin'], '*');
      assert.equal(r.headers['access-control-allow-methods'], 'POST, GET, OPTIONS, PUT, DELETE');
      assert.equal(r.headers['access-control-allow-headers'], 'accept, content-type, authorization');
    }
    const o = await call(s.port, 'OPTIONS', '/anything');
    assert.equal(o.status, 200);
    assert.equal(o.body, '');
  } finally {
    await s.close();
  }
});

void test('paths a version does not serve answer 404 Not Found, as unknown paths under the prefix', async () => {
  const s = await serve(fakeServices(), { gatewayAbsentPaths: ['/maintenance/hashkv', '/maintenance/downgrade'] });
  try {
    for (const path of ['/v3/maintenance/hashkv', '/v3/maintenance/downgrade']) {
      const r = await post(s.port, path, '{}');
      assert.equal(r.status, 404, path);
      assert.equal(r.body, 'Not Found\n');
    }
    assert.notEqual((await post(s.port, '/v3/maintenance/hash', '{}')).status, 404);
  } finally {
    await s.close();
  }
});
