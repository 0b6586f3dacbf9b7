/**
 * /v2/keys against the in-memory port. The expected bodies and headers are the ones a
 * freshly started etcd 3.4.23 (`--enable-v2`, one member) answered to the same requests
 * (its store index is 3 after bootstrap, which bootstrapLikeEtcd reproduces).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapLikeEtcd, createMemoryPort, type MemoryPort } from '../v2store/memory-port.js';
import { send, serveV2, type ServedV2 } from '../v2store/serve-v2.js';

const JSON_TYPE = 'application/json';

void describe('/v2/keys: the reference session', () => {
  let port: MemoryPort;
  let served: ServedV2;
  before(async () => {
    port = createMemoryPort();
    bootstrapLikeEtcd(port);
    served = await serveV2(port);
  });
  after(() => served.close());

  // [method, path, form body, status, X-Etcd-Index, body]
  const session: [string, string, string | undefined, number, string, string][] = [
    ['GET', '/v2/keys/', undefined, 200, '3', '{"action":"get","node":{"dir":true}}'],
    ['PUT', '/v2/keys/foo', 'value=bar', 201, '4', '{"action":"set","node":{"key":"/foo","value":"bar","modifiedIndex":4,"createdIndex":4}}'],
    ['PUT', '/v2/keys/foo', 'value=baz', 200, '5', '{"action":"set","node":{"key":"/foo","value":"baz","modifiedIndex":5,"createdIndex":5},"prevNode":{"key":"/foo","value":"bar","modifiedIndex":4,"createdIndex":4}}'],
    ['GET', '/v2/keys/foo', undefined, 200, '5', '{"action":"get","node":{"key":"/foo","value":"baz","modifiedIndex":5,"createdIndex":5}}'],
    ['GET', '/v2/keys/missing', undefined, 404, '5', '{"errorCode":100,"message":"Key not found","cause":"/missing","index":5}'],
    ['GET', '/v2/keys/foo/sub', undefined, 400, '5', '{"errorCode":104,"message":"Not a directory","cause":"/foo","index":5}'],
    ['GET', '/v2/keys/missing/sub', undefined, 404, '5', '{"errorCode":100,"message":"Key not found","cause":"/missing","index":5}'],
    ['PUT', '/v2/keys/foo', 'value=x&prevValue=nope', 412, '5', '{"errorCode":101,"message":"Compare failed","cause":"[nope != baz]","index":5}'],
    ['PUT', '/v2/keys/foo', 'value=x&prevIndex=1', 412, '5', '{"errorCode":101,"message":"Compare failed","cause":"[1 != 5]","index":5}'],
    ['PUT', '/v2/keys/foo', 'value=x&prevIndex=1&prevValue=nope', 412, '5', '{"errorCode":101,"message":"Compare failed","cause":"[nope != baz] [1 != 5]","index":5}'],
    ['PUT', '/v2/keys/foo', 'value=x&prevValue=baz', 200, '6', '{"action":"compareAndSwap","node":{"key":"/foo","value":"x","modifiedIndex":6,"createdIndex":5},"prevNode":{"key":"/foo","value":"baz","modifiedIndex":5,"createdIndex":5}}'],
    ['PUT', '/v2/keys/foo', 'value=y&prevExist=false', 412, '6', '{"errorCode":105,"message":"Key already exists","cause":"/foo","index":6}'],
    ['PUT', '/v2/keys/new1', 'value=y&prevExist=false', 201, '7', '{"action":"create","node":{"key":"/new1","value":"y","modifiedIndex":7,"createdIndex":7}}'],
    ['PUT', '/v2/keys/nope', 'value=y&prevExist=true', 404, '7', '{"errorCode":100,"message":"Key not found","cause":"/nope","index":7}'],
    ['PUT', '/v2/keys/foo', 'value=z&prevExist=true', 200, '8', '{"action":"update","node":{"key":"/foo","value":"z","modifiedIndex":8,"createdIndex":5},"prevNode":{"key":"/foo","value":"x","modifiedIndex":6,"createdIndex":5}}'],
    ['PUT', '/v2/keys/dir/a?value=1', undefined, 201, '9', '{"action":"set","node":{"key":"/dir/a","value":"1","modifiedIndex":9,"createdIndex":9}}'],
    ['PUT', '/v2/keys/dir/b?value=2', undefined, 201, '10', '{"action":"set","node":{"key":"/dir/b","value":"2","modifiedIndex":10,"createdIndex":10}}'],
    ['PUT', '/v2/keys/dir/_h?value=3', undefined, 201, '11', '{"action":"set","node":{"key":"/dir/_h","value":"3","modifiedIndex":11,"createdIndex":11}}'],
    ['PUT', '/v2/keys/dir/sub/c?value=4', undefined, 201, '12', '{"action":"set","node":{"key":"/dir/sub/c","value":"4","modifiedIndex":12,"createdIndex":12}}'],
    ['GET', '/v2/keys/dir?sorted=true', undefined, 200, '12', '{"action":"get","node":{"key":"/dir","dir":true,"nodes":[{"key":"/dir/a","value":"1","modifiedIndex":9,"createdIndex":9},{"key":"/dir/b","value":"2","modifiedIndex":10,"createdIndex":10},{"key":"/dir/sub","dir":true,"modifiedIndex":12,"createdIndex":12}],"modifiedIndex":9,"createdIndex":9}}'],
    ['GET', '/v2/keys/dir?recursive=true&sorted=true', undefined, 200, '12', '{"action":"get","node":{"key":"/dir","dir":true,"nodes":[{"key":"/dir/a","value":"1","modifiedIndex":9,"createdIndex":9},{"key":"/dir/b","value":"2","modifiedIndex":10,"createdIndex":10},{"key":"/dir/sub","dir":true,"nodes":[{"key":"/dir/sub/c","value":"4","modifiedIndex":12,"createdIndex":12}],"modifiedIndex":12,"createdIndex":12}],"modifiedIndex":9,"createdIndex":9}}'],
    ['GET', '/v2/keys/?sorted=true', undefined, 200, '12', '{"action":"get","node":{"dir":true,"nodes":[{"key":"/dir","dir":true,"modifiedIndex":9,"createdIndex":9},{"key":"/foo","value":"z","modifiedIndex":8,"createdIndex":5},{"key":"/new1","value":"y","modifiedIndex":7,"createdIndex":7}]}}'],
    ['DELETE', '/v2/keys/dir', undefined, 403, '12', '{"errorCode":102,"message":"Not a file","cause":"/dir","index":12}'],
    ['DELETE', '/v2/keys/dir?dir=true', undefined, 403, '12', '{"errorCode":108,"message":"Directory not empty","cause":"/dir","index":12}'],
    ['PUT', '/v2/keys/dir?dir=true', undefined, 403, '12', '{"errorCode":102,"message":"Not a file","cause":"/dir","index":12}'],
    ['PUT', '/v2/keys/', 'value=1', 400, '12', '{"errorCode":107,"message":"Root is read only","cause":"/","index":12}'],
    ['DELETE', '/v2/keys/?recursive=true', undefined, 400, '12', '{"errorCode":107,"message":"Root is read only","cause":"/","index":12}'],
    ['POST', '/v2/keys/queue', 'value=j1', 201, '13', '{"action":"create","node":{"key":"/queue/00000000000000000013","value":"j1","modifiedIndex":13,"createdIndex":13}}'],
    ['POST', '/v2/keys/queue', 'value=j2', 201, '14', '{"action":"create","node":{"key":"/queue/00000000000000000014","value":"j2","modifiedIndex":14,"createdIndex":14}}'],
    ['DELETE', '/v2/keys/foo?prevValue=no', undefined, 412, '14', '{"errorCode":101,"message":"Compare failed","cause":"[no != z]","index":14}'],
    ['DELETE', '/v2/keys/foo?prevIndex=8', undefined, 200, '15', '{"action":"compareAndDelete","node":{"key":"/foo","modifiedIndex":15,"createdIndex":5},"prevNode":{"key":"/foo","value":"z","modifiedIndex":8,"createdIndex":5}}'],
    ['DELETE', '/v2/keys/queue?prevIndex=8', undefined, 403, '15', '{"errorCode":102,"message":"Not a file","cause":"/queue","index":15}'],
    ['PUT', '/v2/keys/new1', 'dir=true', 200, '16', '{"action":"set","node":{"key":"/new1","dir":true,"modifiedIndex":16,"createdIndex":16},"prevNode":{"key":"/new1","value":"y","modifiedIndex":7,"createdIndex":7}}'],
    ['DELETE', '/v2/keys/dir?recursive=true', undefined, 200, '17', '{"action":"delete","node":{"key":"/dir","dir":true,"modifiedIndex":17,"createdIndex":9},"prevNode":{"key":"/dir","dir":true,"modifiedIndex":9,"createdIndex":9}}'],
    ['POST', '/v2/keys/new1', 'dir=true', 201, '18', '{"action":"create","node":{"key":"/new1/00000000000000000018","dir":true,"modifiedIndex":18,"createdIndex":18}}'],
    ['PUT', '/v2/keys/nv', 'value=1&noValueOnSuccess=true', 201, '19', '{"action":"set"}'],
    ['PUT', '/v2/keys/e', undefined, 201, '20', '{"action":"set","node":{"key":"/e","value":"","modifiedIndex":20,"createdIndex":20}}'],
    ['POST', '/v2/keys/e', 'value=1', 400, '20', '{"errorCode":104,"message":"Not a directory","cause":"/e","index":20}'],
    ['PUT', '/v2/keys/j', 'value=%3Ca%26b%3E%E2%80%A8%C3%A9%01%08%0C%7F%22%5C', 201, '21', '{"action":"set","node":{"key":"/j","value":"\\u003ca\\u0026b\\u003e\\u2028é\\u0001\\u0008\\u000c\x7f\\"\\\\","modifiedIndex":21,"createdIndex":21}}'],
    ['PUT', '/v2/keys/a%20b%2Fc', 'value=1', 201, '22', '{"action":"set","node":{"key":"/a b/c","value":"1","modifiedIndex":22,"createdIndex":22}}'],
    ['GET', '/v2/keys/a%20b?recursive=true', undefined, 200, '22', '{"action":"get","node":{"key":"/a b","dir":true,"nodes":[{"key":"/a b/c","value":"1","modifiedIndex":22,"createdIndex":22}],"modifiedIndex":22,"createdIndex":22}}'],
    ['GET', '/v2/keys/a%20b/c?quorum=true', undefined, 200, '22', '{"action":"get","node":{"key":"/a b/c","value":"1","modifiedIndex":22,"createdIndex":22}}'],
    ['GET', '/v2/keys/a%20b/c?quorum=true&wait=true', undefined, 200, '22', '{"action":"get","node":{"key":"/a b/c","value":"1","modifiedIndex":22,"createdIndex":22}}'],
  ];

  for (const [method, path, body, status, index, expected] of session) {
    void it(`${method} ${path}${body ? ` ${body}` : ''} → ${status}`, async () => {
      const r = await send(served.port, method, path, body);
      assert.equal(r.status, status);
      assert.equal(r.body, `${expected}\n`);
      assert.equal(r.headers['content-type'], JSON_TYPE);
      assert.equal(r.headers['x-etcd-index'], index);
      assert.equal(r.headers['x-etcd-cluster-id'], 'd1cfaf999eb97a2a');
      if (status < 300) {
        assert.equal(r.headers['x-raft-term'], '2');
        assert.match(String(r.headers['x-raft-index']), /^\d+$/);
      } else {
        assert.equal(r.headers['x-raft-index'], undefined, 'errors carry no raft headers');
      }
    });
  }

  void it('HEAD answers the headers of GET with no body', async () => {
    const r = await send(served.port, 'HEAD', '/v2/keys/new1');
    assert.equal(r.status, 200);
    assert.equal(r.body, '');
    assert.equal(r.headers['content-type'], JSON_TYPE);
    assert.equal(r.headers['content-length'], String('{"action":"get","node":{"key":"/new1","dir":true,"nodes":[{"key":"/new1/00000000000000000018","dir":true,"modifiedIndex":18,"createdIndex":18}],"modifiedIndex":16,"createdIndex":16}}\n'.length));
  });

  void it('sends quorum reads and writes through the port, plain reads not', () => {
    const methods = port.proposals.map((p) => p.method);
    assert.equal(methods.filter((m) => m === 'GET').length, 2);
    assert.ok(!port.proposals.some((p) => p.method === 'GET' && !p.path.startsWith('/1/a b')));
  });
});

void describe('/v2/keys: TTLs', () => {
  void it('renders expiration (RFC 3339, trailing zeros dropped) and ttl; refresh answers like a set without "refresh"', async () => {
    const port = createMemoryPort(undefined, Date.UTC(2026, 10, 21, 9, 3, 47, 91));
    const served = await serveV2(port);
    try {
      const set = await send(served.port, 'PUT', '/v2/keys/t1', 'value=v&ttl=100');
      assert.equal(set.body, '{"action":"set","node":{"key":"/t1","value":"v","expiration":"2026-11-21T09:05:27.091Z","ttl":100,"modifiedIndex":1,"createdIndex":1}}\n');
      port.nowMs += 50_000;
      const refresh = await send(served.port, 'PUT', '/v2/keys/t1', 'ttl=50&refresh=true');
      assert.equal(refresh.status, 200);
      assert.equal(
        refresh.body,
        '{"action":"set","node":{"key":"/t1","value":"v","expiration":"2026-11-21T09:05:27.091Z","ttl":50,"modifiedIndex":2,"createdIndex":2},"prevNode":{"key":"/t1","value":"v","expiration":"2026-11-21T09:05:27.091Z","ttl":50,"modifiedIndex":1,"createdIndex":1}}\n',
      );
      port.nowMs = Date.UTC(2026, 10, 21, 9, 0, 0);
      const dir = await send(served.port, 'PUT', '/v2/keys/tdir', 'dir=true&ttl=100');
      assert.equal(dir.body, '{"action":"set","node":{"key":"/tdir","dir":true,"expiration":"2026-11-21T09:01:40Z","ttl":100,"modifiedIndex":3,"createdIndex":3}}\n');
      const upd = await send(served.port, 'PUT', '/v2/keys/tdir', 'dir=true&ttl=200&prevExist=true');
      assert.equal(
        upd.body,
        '{"action":"update","node":{"key":"/tdir","dir":true,"expiration":"2026-11-21T09:03:20Z","ttl":200,"modifiedIndex":4,"createdIndex":3},"prevNode":{"key":"/tdir","dir":true,"expiration":"2026-11-21T09:01:40Z","ttl":100,"modifiedIndex":3,"createdIndex":3}}\n',
      );
      const get = await send(served.port, 'GET', '/v2/keys/tdir');
      assert.equal(get.body, '{"action":"get","node":{"key":"/tdir","dir":true,"expiration":"2026-11-21T09:03:20Z","ttl":200,"modifiedIndex":3,"createdIndex":3}}\n');
      const noTtl = await send(served.port, 'PUT', '/v2/keys/t1', 'value=w&ttl=');
      assert.match(noTtl.body, /^\{"action":"set","node":\{"key":"\/t1","value":"w","modifiedIndex":5,"createdIndex":5\},"prevNode":\{"key":"\/t1","value":"v","expiration":/);
      assert.equal(port.proposals.at(-1)?.expiration, undefined);
    } finally {
      await served.close();
    }
  });
});

void describe('/v2/keys: request checks', () => {
  let port: MemoryPort;
  let served: ServedV2;
  before(async () => {
    port = createMemoryPort();
    served = await serveV2(port);
  });
  after(() => served.close());

  // Bodies as etcd 3.4.23 sends them (index 0, no raft headers).
  const refusals: [string, string, string | undefined, string][] = [
    ['PUT', '/v2/keys/ff', 'value=1&prevValue=', '{"errorCode":201,"message":"PrevValue is Required in POST form","cause":"\\"prevValue\\" cannot be empty","index":0}'],
    ['PUT', '/v2/keys/ff', 'value=1&prevIndex=abc', '{"errorCode":203,"message":"The given index in POST form is not a number","cause":"invalid value for \\"prevIndex\\"","index":0}'],
    ['PUT', '/v2/keys/ff', 'value=1&ttl=abc', '{"errorCode":202,"message":"The given TTL in POST form is not a number","cause":"invalid value for \\"ttl\\"","index":0}'],
    ['PUT', '/v2/keys/ff', 'value=1&ttl=-5', '{"errorCode":202,"message":"The given TTL in POST form is not a number","cause":"invalid value for \\"ttl\\"","index":0}'],
    ['PUT', '/v2/keys/ff', 'value=1&dir=maybe', '{"errorCode":209,"message":"Invalid field","cause":"invalid value for \\"dir\\"","index":0}'],
    ['PUT', '/v2/keys/ff', 'value=1&prevExist=maybe', '{"errorCode":209,"message":"Invalid field","cause":"invalid value for prevExist","index":0}'],
    ['PUT', '/v2/keys/ff', 'value=1&refresh=maybe', '{"errorCode":209,"message":"Invalid field","cause":"invalid value for refresh","index":0}'],
    ['PUT', '/v2/keys/ff?wait=true', 'value=1', '{"errorCode":209,"message":"Invalid field","cause":"\\"wait\\" can only be used with GET requests","index":0}'],
    ['GET', '/v2/keys/ff?waitIndex=x', undefined, '{"errorCode":203,"message":"The given index in POST form is not a number","cause":"invalid value for \\"waitIndex\\"","index":0}'],
    ['PUT', '/v2/keys/t1', 'ttl=50&refresh=true&value=q', '{"errorCode":211,"message":"Value provided on refresh","cause":"A value was provided on a refresh","index":0}'],
    ['PUT', '/v2/keys/t1', 'refresh=true', '{"errorCode":212,"message":"A TTL must be provided on refresh","cause":"No TTL value set","index":0}'],
    ['GET', '/v2/keys/k?value=%zz', undefined, '{"errorCode":210,"message":"Invalid POST form","cause":"invalid URL escape \\"%zz\\"","index":0}'],
    ['GET', '/v2/keys/k?a=1;b=2', undefined, '{"errorCode":210,"message":"Invalid POST form","cause":"invalid semicolon separator in query","index":0}'],
    ['PUT', '/v2/keys/k', 'value=%zz', '{"errorCode":210,"message":"Invalid POST form","cause":"invalid URL escape \\"%zz\\"","index":0}'],
  ];
  for (const [method, path, body, expected] of refusals) {
    void it(`${method} ${path} ${body ?? ''} → 400`, async () => {
      const before = port.proposals.length;
      const r = await send(served.port, method, path, body);
      assert.equal(r.status, 400);
      assert.equal(r.body, `${expected}\n`);
      assert.equal(r.headers['x-etcd-index'], '0');
      assert.equal(r.headers['x-etcd-cluster-id'], 'd1cfaf999eb97a2a');
      assert.equal(port.proposals.length, before, 'nothing proposed');
    });
  }

  void it('405 for other methods, with Allow, before the cluster id', async () => {
    const r = await send(served.port, 'PATCH', '/v2/keys/ff');
    assert.equal(r.status, 405);
    assert.equal(r.headers.allow, 'HEAD,GET,PUT,POST,DELETE');
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(r.body, 'Method Not Allowed\n');
    assert.equal(r.headers['x-etcd-cluster-id'], undefined);
  });

  void it('unclean paths are redirected like Go’s mux (301, query kept, HTML body for GET only)', async () => {
    const get = await send(served.port, 'GET', '/v2/keys//a?x=1');
    assert.equal(get.status, 301);
    assert.equal(get.headers.location, '/v2/keys/a?x=1');
    assert.equal(get.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(get.body, '<a href="/v2/keys/a?x=1">Moved Permanently</a>.\n\n');
    const put = await send(served.port, 'PUT', '/v2/keys/x/../b', 'value=1');
    assert.equal(put.status, 301);
    assert.equal(put.headers.location, '/v2/keys/b');
    assert.equal(put.headers['content-type'], undefined);
    assert.equal(put.body, '');
    const escaped = await send(served.port, 'GET', '/v2/keys/a%2F..%2F..%2F0/members');
    assert.equal(escaped.status, 301);
    assert.equal(escaped.headers.location, '/v2/0/members', 'a key can never reach the internal /0 space');
  });

  void it('takes body parameters before query ones, and ignores bodies that are not forms or not on PUT/POST', async () => {
    const a = await send(served.port, 'PUT', '/v2/keys/q?value=fromquery', 'value=frombody');
    assert.match(a.body, /"value":"frombody"/);
    const b = await send(served.port, 'PUT', '/v2/keys/q?value=fromquery', 'other=1');
    assert.match(b.body, /"node":\{"key":"\/q","value":"fromquery"/);
    const c = await send(served.port, 'PUT', '/v2/keys/q', 'value=zz', 'text/plain');
    assert.match(c.body, /"node":\{"key":"\/q","value":""/);
    const d = await send(served.port, 'PUT', '/v2/keys/q', 'value=a+b&x', 'application/x-www-form-urlencoded; charset=utf-8');
    assert.match(d.body, /"node":\{"key":"\/q","value":"a b"/);
    await send(served.port, 'PUT', '/v2/keys/dd', 'dir=true');
    const e = await send(served.port, 'DELETE', '/v2/keys/dd', 'dir=true');
    assert.equal(e.status, 403, 'a DELETE body is not read');
  });

  void it('a failure to replicate is a 500 with error 300 and etcd’s text', async () => {
    port.failNext = { kind: 'Timeout' };
    const r = await send(served.port, 'PUT', '/v2/keys/x', 'value=1');
    assert.equal(r.status, 500);
    assert.equal(r.body, '{"errorCode":300,"message":"Raft Internal Error","cause":"etcdserver: request timed out","index":0}\n');
    assert.equal(r.headers['x-etcd-index'], '0');
  });

  void it('turns ttl into an absolute expiration with the edge clock', async () => {
    port.nowMs = Date.UTC(2030, 0, 1);
    await send(served.port, 'PUT', '/v2/keys/exp', 'value=v&ttl=30');
    assert.equal(port.proposals.at(-1)?.expiration, Date.UTC(2030, 0, 1) + 30_000);
  });
});
