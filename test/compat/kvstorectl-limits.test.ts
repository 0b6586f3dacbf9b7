/**
 * Size limits. Client side: a request above the send limit (2 MiB) fails with ResourceExhausted
 * before anything is sent — kvstorectl prints what etcdctl prints, worded as SPEC.md gives it
 * (`grpc: trying to send message larger than max (<size> vs. <limit>)`; etcdctl 3.4.23, built
 * with a later gRPC-Go, omits the `grpc: ` prefix); a response above the receive limit fails with
 * `grpc: received message larger than max (…)`. Server side: a put above --max-request-bytes
 * fails with `Error: etcdserver: request is too large`, identical to etcdctl, against etcd and
 * kvstore.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../../ctl/client/index.js';
import { etcdctl, etcdVersion, mask, startMember, type Member } from '../support/processes.js';
import { ctlDiffSuite, kvstorectl, type CtlCase } from '../unit/ctl/support/ctl-diff.js';

const ABOVE_CLIENT_LIMIT = 'x'.repeat(2_200_000);
const ABOVE_SERVER_LIMIT = 'x'.repeat(1_600_000);

const CASES: readonly CtlCase[] = [
  {
    name: 'a put above the server request limit is rejected by the server',
    steps: [{ run: ['put', 'big'], input: ABOVE_SERVER_LIMIT }, ['get', 'big'], { run: ['put', 'ok'], input: 'x'.repeat(1_000_000) }, ['get', 'ok', '--keys-only']],
  },
];

ctlDiffSuite('kvstorectl limits', CASES);

void describe('client-side limits', () => {
  let etcd: Member;
  let kvstore: Member;
  let sink: Server;
  let sinkBytes = 0;
  let sinkEndpoint = '';

  before(async () => {
    [etcd, kvstore] = await Promise.all([startMember('etcd', { name: 'lim' }), startMember('kvstore', { name: 'lim', env: { KVSTORE_SERVER_VERSION: etcdVersion() } })]);
    sink = createServer((sock) => sock.on('data', (b: Buffer) => (sinkBytes += b.length)));
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const addr = sink.address();
    sinkEndpoint = typeof addr === 'object' && addr !== null ? `127.0.0.1:${addr.port}` : '';
  });
  after(async () => {
    await Promise.all([etcd?.kill9(), kvstore?.kill9(), new Promise((resolve) => sink?.close(resolve))]);
  });

  void it('a put above the send limit fails with ResourceExhausted, as etcdctl reports it', async () => {
    const want = 'Error: rpc error: code = ResourceExhausted desc = grpc: trying to send message larger than max (2200010 vs. 2097152)';
    const ref = await etcdctl(etcd.endpoint, ['put', 'big'], { input: ABOVE_CLIENT_LIMIT });
    for (const m of [etcd, kvstore]) {
      const r = await kvstorectl(m.endpoint, ['put', 'big'], { input: ABOVE_CLIENT_LIMIT });
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.split('\n').find((l) => l.startsWith('Error: ')), want);
      assert.equal(mask(r.stderr), mask(ref.stderr).replace(/desc = trying to send/g, 'desc = grpc: trying to send'), 'same lines as etcdctl but for the grpc: prefix');
      assert.equal((await kvstorectl(m.endpoint, ['get', 'big'])).stdout, '', 'nothing was stored');
    }
  });

  void it('nothing is sent: the request fails before a connection is made', async () => {
    sinkBytes = 0;
    const r = await kvstorectl(sinkEndpoint, ['put', 'big', '--command-timeout=1s'], { input: ABOVE_CLIENT_LIMIT });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /grpc: trying to send message larger than max \(2200010 vs\. 2097152\)/);
    assert.ok(sinkBytes < 1024, `bytes received by the endpoint: ${sinkBytes}`);
  });

  void it('the client library: typed errors for both limits, configurable', async () => {
    for (const m of [etcd, kvstore]) {
      const c = createClient({ endpoints: [m.endpoint], dialTimeoutMs: 2000, commandTimeoutMs: 5000, maxCallSendMsgSize: 1000, maxCallRecvMsgSize: 4096 });
      try {
        const tooBig = await c.kv.put('k', 'v'.repeat(2000));
        assert.ok(!tooBig.ok);
        assert.equal(tooBig.error.kind, 'SendTooLarge');
        assert.equal(tooBig.error.code, 8);
        assert.equal(tooBig.error.details, 'grpc: trying to send message larger than max (2006 vs. 1000)');
        assert.ok((await c.kv.put('k', 'v'.repeat(900))).ok);
        const small = await c.kv.get('k');
        assert.ok(small.ok);
        assert.ok((await c.kv.put('k', 'v'.repeat(900))).ok);
        for (let i = 0; i < 6; i++) assert.ok((await c.kv.put(`r${i}`, 'v'.repeat(900))).ok);
        const big = await c.kv.get('r', { prefix: true });
        assert.ok(!big.ok);
        assert.equal(big.error.kind, 'ReceiveTooLarge');
        assert.equal(big.error.code, 8);
        assert.match(big.error.details, /^grpc: received message larger than max \(\d+ vs\. 4096\)$/);
      } finally {
        c.close();
      }
    }
  });
});
