/** /v2/members and /v2/machines against the in-memory port; bodies as etcd 3.4.23 sends them. */
import { after, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryPort, type MemoryPort } from '../v2store/memory-port.js';
import { send, serveV2, type ServedV2 } from '../v2store/serve-v2.js';

const JSON_TYPE = 'application/json';
const PROBE = '{"id":"bdae9bbc11dd390d","name":"probe","peerURLs":["http://127.0.0.1:23801"],"clientURLs":["http://127.0.0.1:23791"]}';

void describe('/v2/members', () => {
  let port: MemoryPort;
  let served: ServedV2 | undefined;
  beforeEach(async () => {
    await served?.close();
    port = createMemoryPort();
    served = await serveV2(port);
  });
  after(() => served?.close());
  const at = (): number => served?.port ?? 0;

  void it('lists members sorted by id; an unstarted member has an empty name and []', async () => {
    port.membersList.push({ id: '2928272ddaf27e15', name: '', peerURLs: ['http://127.0.0.1:23999'], clientURLs: [] });
    const r = await send(at(), 'GET', '/v2/members');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], JSON_TYPE);
    assert.equal(r.headers['x-etcd-cluster-id'], 'd1cfaf999eb97a2a');
    assert.equal(r.body, `{"members":[{"id":"2928272ddaf27e15","name":"","peerURLs":["http://127.0.0.1:23999"],"clientURLs":[]},${PROBE}]}\n`);
  });

  void it('the leader, or 503 during an election', async () => {
    const r = await send(at(), 'GET', '/v2/members/leader');
    assert.equal(r.status, 200);
    assert.equal(r.body, `${PROBE}\n`);
    port.leaderId = undefined;
    const none = await send(at(), 'GET', '/v2/members/leader');
    assert.equal(none.status, 503);
    assert.equal(none.body, '{"message":"During election"}');
  });

  void it('unknown sub-paths are 404 Not found', async () => {
    const r = await send(at(), 'GET', '/v2/members/foo');
    assert.equal(r.status, 404);
    assert.equal(r.body, '{"message":"Not found"}');
  });

  void it('POST adds a member (201), URLs sorted', async () => {
    const r = await send(at(), 'POST', '/v2/members', '{"peerURLs":["http://127.0.0.1:24000"," http://127.0.0.1:23999 "]}', 'application/json');
    assert.equal(r.status, 201);
    assert.equal(r.headers['content-type'], JSON_TYPE);
    assert.equal(r.body, '{"id":"2928272ddaf27e16","name":"","peerURLs":["http://127.0.0.1:23999","http://127.0.0.1:24000"],"clientURLs":[]}\n');
  });

  const refusals: [string, string | undefined, number, string][] = [
    ['{"peerURLs":["http://127.0.0.1:23999"]}', 'application/x-www-form-urlencoded', 415, 'Bad Content-Type application/x-www-form-urlencoded, accept application/json'],
    ['{}', 'Application/JSON', 415, 'Bad Content-Type Application/JSON, accept application/json'],
    ['{"peerURLs":[]}', 'application/json', 400, 'no valid URLs given'],
    ['{"peerURLs":["ftp://x:1"]}', 'application/json', 400, 'URL scheme must be http, https, unix, or unixs: ftp://x:1'],
    ['{"peerURLs":["http://127.0.0.1"]}', 'application/json', 400, 'URL address does not have the form \\"host:port\\": http://127.0.0.1'],
    ['{"peerURLs":["http://127.0.0.1:1/x"]}', 'application/json', 400, 'URL must not contain a path: http://127.0.0.1:1/x'],
    ['{"peerURLs":["::"]}', 'application/json', 400, 'parse \\"::\\": missing protocol scheme'],
    ['{"peerURLs":"x"}', 'application/json', 400, 'json: cannot unmarshal string into Go struct field .peerURLs of type []string'],
    ['{"peerURLs":["http://127.0.0.1:23801"]}', 'application/json; charset=utf-8', 409, 'membership: peerURL exists'],
  ];
  for (const [body, type, status, message] of refusals) {
    void it(`POST ${body} (${type}) → ${status}`, async () => {
      const r = await send(at(), 'POST', '/v2/members', body, type);
      assert.equal(r.status, status);
      assert.equal(r.body, `{"message":"${message}"}`);
      assert.equal(r.headers['content-type'], JSON_TYPE);
      assert.equal(port.membersList.length, 1);
    });
  }

  void it('DELETE removes (204), then 410 for the removed id, 404 for unknown or unparsable ids', async () => {
    const ok = await send(at(), 'DELETE', '/v2/members/BDAE9BBC11DD390D');
    assert.equal(ok.status, 204);
    assert.equal(ok.body, '');
    const gone = await send(at(), 'DELETE', '/v2/members/bdae9bbc11dd390d');
    assert.equal(gone.status, 410);
    assert.equal(gone.body, '{"message":"Member permanently removed: bdae9bbc11dd390d"}');
    const unknown = await send(at(), 'DELETE', '/v2/members/00abcdef');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body, '{"message":"No such member: abcdef"}');
    const bad = await send(at(), 'DELETE', '/v2/members/zz');
    assert.equal(bad.status, 404);
    assert.equal(bad.body, '{"message":"No such member: zz"}');
  });

  void it('DELETE/PUT without an id is a plain 405 (no Allow)', async () => {
    const r = await send(at(), 'DELETE', '/v2/members');
    assert.equal(r.status, 405);
    assert.equal(r.body, 'Method Not Allowed\n');
    assert.equal(r.headers.allow, undefined);
    assert.equal(r.headers['x-etcd-cluster-id'], 'd1cfaf999eb97a2a');
  });

  void it('PUT updates peer URLs (204); 404 unknown id, 409 a URL in use', async () => {
    port.membersList.push({ id: 'a1', name: 'b', peerURLs: ['http://b:2380'], clientURLs: [] });
    const ok = await send(at(), 'PUT', '/v2/members/a1', '{"peerURLs":["http://b2:2380"]}', 'application/json');
    assert.equal(ok.status, 204);
    assert.deepEqual(port.membersList.find((m) => m.id === 'a1')?.peerURLs, ['http://b2:2380']);
    const unknown = await send(at(), 'PUT', '/v2/members/abcdef', '{"peerURLs":["http://127.0.0.1:23998"]}', 'application/json');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body, '{"message":"No such member: abcdef"}');
    const clash = await send(at(), 'PUT', '/v2/members/a1', '{"peerURLs":["http://127.0.0.1:23801"]}', 'application/json');
    assert.equal(clash.status, 409);
    assert.equal(clash.body, '{"message":"membership: peerURL exists"}');
  });

  void it('other failures are 500 Internal Server Error', async () => {
    port.addMember = async () => ({ ok: false, error: { kind: 'NotEnoughStartedMembers' } });
    const r = await send(at(), 'POST', '/v2/members', '{"peerURLs":["http://x:1"]}', 'application/json');
    assert.equal(r.status, 500);
    assert.equal(r.body, '{"message":"Internal Server Error"}');
  });

  void it('405 with Allow for other methods', async () => {
    const r = await send(at(), 'PATCH', '/v2/members');
    assert.equal(r.status, 405);
    assert.equal(r.headers.allow, 'GET,POST,DELETE,PUT');
    assert.equal(r.headers['x-etcd-cluster-id'], undefined);
  });
});

void describe('/v2/machines', () => {
  void it('joins the client URLs with ", "', async () => {
    const port = createMemoryPort();
    port.membersList.push({ id: '1', name: 'x', peerURLs: ['http://x:2380'], clientURLs: ['http://x:2379', 'http://x:4001'] });
    const served = await serveV2(port);
    try {
      const r = await send(served.port, 'GET', '/v2/machines');
      assert.equal(r.status, 200);
      assert.equal(r.body, 'http://x:2379, http://x:4001, http://127.0.0.1:23791');
      assert.equal((await send(served.port, 'POST', '/v2/machines')).status, 405);
    } finally {
      await served.close();
    }
  });
});
