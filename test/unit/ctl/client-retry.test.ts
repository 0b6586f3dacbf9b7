/**
 * The client library's call policy against in-process fake members (grpc-js servers on
 * loopback): reads move to another endpoint after a server-side Unavailable while writes do not;
 * a dropped member is skipped; an invalid auth token (or one of an old auth revision) is
 * refreshed once; streams carry the require-leader metadata; every failed attempt is reported
 * with its number.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Server, ServerCredentials, status, type Metadata, type sendUnaryData, type ServerUnaryCall, type ServerDuplexStream, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { AuthService, KVService, WatchService, type PutResponse, type RangeResponse, type WatchRequest, type WatchResponse } from '../../../proto/gen/etcd/rpc.js';
import { createClient, type AttemptFailure } from '../../../ctl/client/index.js';

const HEADER = (memberId: bigint) => ({ clusterId: 1n, memberId, revision: 5n, raftTerm: 2n });

interface Fake {
  readonly endpoint: string;
  readonly calls: string[];
  readonly metadata: Metadata[];
  stop(): Promise<void>;
}

type Behaviour = { readonly rangeFails?: string; readonly putFails?: string; readonly tokens?: string[]; readonly stale?: string[] };

async function startFake(id: bigint, b: Behaviour): Promise<Fake> {
  const server = new Server();
  const calls: string[] = [];
  const metadata: Metadata[] = [];
  const fail = (cb: sendUnaryData<unknown>, message: string): void => cb({ code: status.UNAVAILABLE, details: message, name: 'Error', message, metadata: undefined as unknown as Metadata });
  const kv: UntypedServiceImplementation = {
    range: (call: ServerUnaryCall<unknown, RangeResponse>, cb: sendUnaryData<RangeResponse>) => {
      calls.push('range');
      metadata.push(call.metadata);
      const token = call.metadata.get('token')[0];
      if (b.stale?.includes(String(token))) {
        cb({ code: status.INVALID_ARGUMENT, details: 'etcdserver: revision of auth store is old', name: 'Error', message: '', metadata: undefined as unknown as Metadata });
        return;
      }
      if (b.tokens !== undefined && !b.tokens.includes(String(token))) {
        cb({ code: status.UNAUTHENTICATED, details: 'etcdserver: invalid auth token', name: 'Error', message: '', metadata: undefined as unknown as Metadata });
        return;
      }
      if (b.rangeFails !== undefined) return fail(cb as sendUnaryData<unknown>, b.rangeFails);
      cb(null, { header: HEADER(id), kvs: [], more: false, count: 0n });
    },
    put: (_call: ServerUnaryCall<unknown, PutResponse>, cb: sendUnaryData<PutResponse>) => {
      calls.push('put');
      if (b.putFails !== undefined) return fail(cb as sendUnaryData<unknown>, b.putFails);
      cb(null, { header: HEADER(id), prevKv: undefined });
    },
    deleteRange: () => undefined,
    txn: () => undefined,
    compact: () => undefined,
  };
  let issued = 0;
  const auth: UntypedServiceImplementation = {
    authenticate: (_call: ServerUnaryCall<unknown, unknown>, cb: sendUnaryData<unknown>) => {
      calls.push('authenticate');
      issued++;
      const token = `tok${issued}`;
      b.tokens?.splice(0, b.tokens.length, token);
      cb(null, { header: HEADER(id), token });
    },
  };
  const watch: UntypedServiceImplementation = {
    watch: (call: ServerDuplexStream<WatchRequest, WatchResponse>) => {
      metadata.push(call.metadata);
      call.on('data', () => call.write({ header: HEADER(id), watchId: 0n, created: true, canceled: false, compactRevision: 0n, cancelReason: '', fragment: false, events: [] }));
    },
  };
  server.addService(KVService, kv);
  server.addService(AuthService, auth);
  server.addService(WatchService, watch);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err === null ? resolve(p) : reject(err))));
  return { endpoint: `127.0.0.1:${port}`, calls, metadata, stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}

void describe('client call policy', () => {
  let noLeader: Fake;
  let healthy: Fake;
  before(async () => {
    noLeader = await startFake(1n, { rangeFails: 'etcdserver: no leader', putFails: 'etcdserver: no leader' });
    healthy = await startFake(2n, {});
  });
  after(async () => {
    await Promise.all([noLeader.stop(), healthy.stop()]);
  });

  void it('a read moves to the next endpoint after Unavailable; each failed attempt is reported', async () => {
    const failures: AttemptFailure[] = [];
    const c = createClient({ endpoints: [noLeader.endpoint, healthy.endpoint], dialTimeoutMs: 1000, commandTimeoutMs: 3000, logger: { attemptFailed: (f) => failures.push(f) } });
    try {
      assert.ok((await c.connect()).ok);
      for (let i = 0; i < 4; i++) {
        const r = await c.kv.get('k');
        assert.ok(r.ok, r.ok ? '' : r.error.message);
        assert.equal(r.value.header?.memberId, 2n);
      }
      assert.ok(failures.length > 0 && failures.every((f) => f.error.kind === 'NoLeader' && f.endpoint === noLeader.endpoint && f.attempt === 0));
    } finally {
      c.close();
    }
  });

  void it('a write that etcd refused with Unavailable is not repeated elsewhere', async () => {
    const c = createClient({ endpoints: [noLeader.endpoint], dialTimeoutMs: 1000, commandTimeoutMs: 3000 });
    try {
      const before = noLeader.calls.filter((x) => x === 'put').length;
      const r = await c.kv.put('k', 'v');
      assert.ok(!r.ok);
      assert.deepEqual([r.error.kind, r.error.code, r.error.message], ['NoLeader', 14, 'etcdserver: no leader']);
      assert.equal(noLeader.calls.filter((x) => x === 'put').length - before, 1);
    } finally {
      c.close();
    }
  });

  void it('an endpoint that went away is skipped', async () => {
    const gone = await startFake(3n, {});
    const c = createClient({ endpoints: [gone.endpoint, healthy.endpoint], dialTimeoutMs: 1000, commandTimeoutMs: 3000 });
    try {
      assert.ok((await c.kv.get('k')).ok);
      await gone.stop();
      for (let i = 0; i < 4; i++) {
        const r = await c.kv.get('k');
        assert.ok(r.ok, r.ok ? '' : r.error.message);
      }
    } finally {
      c.close();
    }
  });

  void it('credentials: authenticates first, refreshes an invalid token once', async () => {
    const tokens: string[] = [];
    const secured = await startFake(4n, { tokens });
    const c = createClient({ endpoints: [secured.endpoint], dialTimeoutMs: 1000, commandTimeoutMs: 3000, username: 'u', password: 'p' });
    try {
      assert.ok((await c.kv.get('k')).ok);
      tokens.splice(0, tokens.length, 'rotated');
      assert.ok((await c.kv.get('k')).ok);
      assert.deepEqual(secured.calls, ['authenticate', 'range', 'range', 'authenticate', 'range']);
    } finally {
      c.close();
      await secured.stop();
    }
  });

  void it('credentials: a token of an old auth revision is refreshed once, as clientv3 does', async () => {
    const stale: string[] = [];
    const secured = await startFake(5n, { tokens: [], stale });
    const c = createClient({ endpoints: [secured.endpoint], dialTimeoutMs: 1000, commandTimeoutMs: 3000, username: 'u', password: 'p' });
    try {
      assert.ok((await c.kv.get('k')).ok);
      stale.push('tok1');
      assert.ok((await c.kv.get('k')).ok);
      assert.deepEqual(secured.calls, ['authenticate', 'range', 'range', 'authenticate', 'range']);
    } finally {
      c.close();
      await secured.stop();
    }
  });

  void it('watch streams carry require-leader metadata', async () => {
    const c = createClient({ endpoints: [healthy.endpoint], dialTimeoutMs: 1000 });
    try {
      const w = c.watch('k', { createdNotify: true });
      for await (const r of w) {
        assert.ok(r.ok && r.value.created);
        break;
      }
      assert.ok(healthy.metadata.some((m) => m.get('hasleader')[0] === 'true'));
    } finally {
      c.close();
    }
  });
});
