// gRPC calls as a raw HTTP/2 client sees them — on our own framing (h2-calls.ts, every call
// answered on its stream) and on grpc-js over Node's HTTP/2 (KVSTORE_GRPC_HTTP2=node, grpc-js's
// public API alone) — with the same answers on both: reply headers and trailers, framing
// errors, content types that are not gRPC, compressed requests, unknown methods, deadlines,
// and calls the client resets at any moment.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { ok } from '../../../server/errors/domain-error.js';
import { call, header, msg, startServer, type Harness, type HarnessTransport } from './harness.js';

for (const transport of ['own', 'node'] as const satisfies readonly HarnessTransport[]) {
  void describe(`on ${transport === 'own' ? 'our own' : "Node's"} HTTP/2`, () => {
    let h: Harness;
    let session: ClientHttp2Session;
    before(async () => {
      h = await startServer(undefined, transport);
      session = connect(`http://${h.address}`);
    });
    after(async () => {
      session.destroy();
      await h.close();
    });

    interface RawReply {
      readonly headers: IncomingHttpHeaders;
      readonly trailers: IncomingHttpHeaders;
      readonly body: Buffer;
    }

    const GRPC_HEADERS = { ':method': 'POST', 'content-type': 'application/grpc', te: 'trailers' };

    function frame(message: Uint8Array): Buffer {
      const f = Buffer.alloc(5 + message.length);
      f.writeUInt32BE(message.length, 1);
      Buffer.from(message).copy(f, 5);
      return f;
    }

    function raw(path: string, body: Buffer, extra: OutgoingHttpHeaders = {}): Promise<RawReply> {
      return new Promise((resolve, reject) => {
        const req = session.request({ ...GRPC_HEADERS, ':path': path, ...extra });
        let headers: IncomingHttpHeaders = {};
        let trailers: IncomingHttpHeaders = {};
        const chunks: Buffer[] = [];
        req.on('response', (hs) => (headers = hs));
        req.on('trailers', (ts) => (trailers = ts));
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => resolve({ headers, trailers, body: Buffer.concat(chunks) }));
        req.on('error', reject);
        req.end(body);
      });
    }

    const putBytes = (key: string): Buffer => frame(pb.PutRequest.encode(msg(pb.PutRequest, { key: Buffer.from(key) })).finish());

    void test('an OK reply: gRPC headers, one length-prefixed message, grpc-status 0 in the trailers', async () => {
      const r = await raw('/etcdserverpb.KV/Put', putBytes('a'));
      assert.equal(r.headers[':status'], 200);
      assert.equal(r.headers['content-type'], 'application/grpc+proto');
      assert.equal(r.headers['grpc-encoding'], 'identity');
      assert.equal(r.trailers['grpc-status'], '0');
      assert.equal(r.trailers['grpc-message'], 'OK');
      assert.equal(r.body.readUInt32BE(1), r.body.length - 5);
      assert.deepEqual(pb.PutResponse.decode(r.body.subarray(5)).header, header());
    });

    void test('no request message, or two of them, is Unimplemented as grpc-js says it', async () => {
      const none = await raw('/etcdserverpb.KV/Put', Buffer.alloc(0));
      assert.equal(none.headers['grpc-status'], String(grpc.status.UNIMPLEMENTED));
      assert.equal(decodeURI(String(none.headers['grpc-message'])), 'Received no request message for server streaming method /etcdserverpb.KV/Put');
      const partial = await raw('/etcdserverpb.KV/Put', putBytes('a').subarray(0, 6));
      assert.equal(partial.headers['grpc-status'], String(grpc.status.UNIMPLEMENTED));
      const two = await raw('/etcdserverpb.KV/Put', Buffer.concat([putBytes('a'), putBytes('b')]));
      assert.equal(two.headers['grpc-status'], String(grpc.status.UNIMPLEMENTED));
      assert.equal(decodeURI(String(two.headers['grpc-message'])), 'Received a second request message for server streaming method /etcdserverpb.KV/Put');
    });

    void test('a length prefix above the receive limit is ResourceExhausted before the body arrives', async () => {
      const head = Buffer.alloc(5);
      head.writeUInt32BE(10 * 1024 * 1024, 1);
      const r = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
        const req = session.request({ ...GRPC_HEADERS, ':path': '/etcdserverpb.KV/Put' });
        req.on('response', (hs) => {
          resolve(hs);
          req.close();
        });
        req.on('error', reject);
        req.write(head); // the stream stays open: the answer cannot wait for the end of the request
      });
      assert.equal(r['grpc-status'], String(grpc.status.RESOURCE_EXHAUSTED));
      assert.match(decodeURI(String(r['grpc-message'])), /^Received message larger than max \(10485760 vs \d+\)$/);
    });

    void test('metadata is read from the headers: hasleader without a leader is NoLeader', async () => {
      h.leader = false;
      try {
        const r = await raw('/etcdserverpb.KV/Range', frame(pb.RangeRequest.encode(msg(pb.RangeRequest)).finish()), { hasleader: 'true' });
        assert.equal(r.headers['grpc-status'], String(grpc.status.UNAVAILABLE));
        assert.equal(decodeURI(String(r.headers['grpc-message'])), 'etcdserver: no leader');
      } finally {
        h.leader = true;
      }
    });

    void test('a content type that is not gRPC is answered 415', async () => {
      const r = await raw('/etcdserverpb.KV/Put', putBytes('a'), { 'content-type': 'application/json' });
      assert.equal(r.headers[':status'], 415);
    });

    void test('a compressed request is inflated and answered', async () => {
      const client = new pb.KVClient(h.address, h.creds, { 'grpc.default_compression_algorithm': 2 });
      try {
        const r = await call(client, pb.KVService.put, msg(pb.PutRequest, { key: Buffer.from('gz'), value: Buffer.alloc(4096, 1) }));
        assert.equal(r.error, null);
        assert.deepEqual(r.response?.header, header());
      } finally {
        client.close();
      }
    });

    void test('a reply to a stream the client reset is dropped; the server keeps serving', async () => {
      const original = h.services.kv.put;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => {
        h.services.kv.put = () => {
          resolve();
          return new Promise((r) => (release = () => r(ok(msg(pb.PutResponse, { header: header() })))));
        };
      });
      try {
        const req = session.request({ ...GRPC_HEADERS, ':path': '/etcdserverpb.KV/Put' });
        req.on('error', () => {});
        const closed = new Promise((resolve) => req.on('close', resolve));
        req.end(putBytes('slow'));
        await reached;
        req.close(8); // RST_STREAM CANCEL
        await closed;
        release();
        // The reply is attempted on the next turns; let it happen before the next call.
        for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      } finally {
        h.services.kv.put = original;
      }
      const r = await raw('/etcdserverpb.KV/Put', putBytes('after'));
      assert.equal(r.trailers['grpc-status'], '0');
    });

    void test('a method no service has is Unimplemented with grpc-js\'s text', async () => {
      const r = await raw('/etcdserverpb.KV/Nope', frame(new Uint8Array(0)));
      assert.equal(r.headers['grpc-status'], String(grpc.status.UNIMPLEMENTED));
      assert.equal(decodeURI(String(r.headers['grpc-message'])), 'The server does not implement the method /etcdserverpb.KV/Nope');
    });

    void test('a request compressed with an encoding the server does not know is Unimplemented', async () => {
      const r = await raw('/etcdserverpb.KV/Put', Buffer.concat([Buffer.from([1, 0, 0, 0, 1]), Buffer.from([0])]), { 'grpc-encoding': 'snappy' });
      assert.equal(r.trailers['grpc-status'] ?? r.headers['grpc-status'], String(grpc.status.UNIMPLEMENTED));
    });

    void test('a bidi call with a deadline is served, and ends with DEADLINE_EXCEEDED at the deadline', async () => {
      const client = new pb.WatchClient(h.address, h.creds);
      try {
        const stream = client.watch({ deadline: Date.now() + 300 });
        const created = new Promise<pb.WatchResponse>((resolve) => stream.once('data', resolve));
        const ended = new Promise<grpc.StatusObject>((resolve) => stream.on('status', resolve));
        stream.on('error', () => undefined);
        stream.write({ requestUnion: { $case: 'createRequest', value: msg(pb.WatchCreateRequest, { key: Buffer.from('dl') }) } });
        assert.equal((await created).created, true);
        assert.equal((await ended).code, grpc.status.DEADLINE_EXCEEDED);
      } finally {
        client.close();
      }
      const r = await raw('/etcdserverpb.KV/Put', putBytes('after-deadline'));
      assert.equal(r.trailers['grpc-status'], '0');
    });

    void test('HEADERS then RST_STREAM at once, on every kind of method and content type, costs only the stream', async () => {
      const paths = ['/etcdserverpb.KV/Range', '/etcdserverpb.Watch/Watch', '/etcdserverpb.Lease/LeaseKeepAlive', '/etcdserverpb.Maintenance/Snapshot', '/etcdserverpb.KV/Nope'];
      const variants: OutgoingHttpHeaders[] = [{}, { 'content-type': 'text/plain' }, { 'grpc-encoding': 'gzip' }, { 'grpc-timeout': '1M' }];
      for (let round = 0; round < 5; round++) {
        for (const path of paths) {
          for (const extra of variants) {
            const req = session.request({ ...GRPC_HEADERS, ':path': path, ...extra });
            req.on('error', () => undefined);
            req.close(8);
          }
        }
        await new Promise((r) => setImmediate(r));
      }
      const r = await raw('/etcdserverpb.KV/Put', putBytes('after-resets'));
      assert.equal(r.trailers['grpc-status'], '0');
    });
  });
}
