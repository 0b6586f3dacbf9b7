/**
 * Snapshot streaming: a 50 MB body generated lazily arrives intact while the producer never
 * runs far ahead of a slow consumer (back-pressure); refusals come before any body byte;
 * handler and source failures come back as values; snapshot metrics are counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { err, ok, type Result } from '../../../server/errors/domain-error.js';
import { closeAll, liveHandles, recorder, startMember, type Member } from './harness.js';

const MB = 1024 * 1024;

function lazyBody(total: number, chunk: number, progress: { produced: number }, failAt?: number): AsyncIterable<Buffer> {
  return {
    async *[Symbol.asyncIterator]() {
      for (let i = 0; progress.produced < total; i++) {
        if (failAt !== undefined && progress.produced >= failAt) throw new Error('disk read failed');
        const size = Math.min(chunk, total - progress.produced);
        const c = Buffer.alloc(size, i & 0xff);
        c.writeUInt32BE(i, 0);
        progress.produced += size;
        yield c;
      }
    },
  };
}

async function pair(onSnapshot: Parameters<typeof recorder>[0]): Promise<[Member, Member]> {
  const a = await startMember({ id: 1n, host: '127.0.0.50' });
  const b = await startMember({ id: 2n, host: '127.0.0.51', handlers: recorder(onSnapshot) });
  a.transport.addPeer(2n, [b.url()]);
  b.transport.addPeer(1n, [a.url()]);
  return [a, b];
}

void test('a 50 MB snapshot streams with back-pressure and arrives intact', async () => {
  const total = 50 * MB;
  const progress = { produced: 0 };
  let consumed = 0;
  let maxLead = 0;
  let receivedMeta = '';
  let from = 0n;
  const receivedHash = createHash('sha256');
  const [a, b] = await pair(async (sender, meta, body): Promise<Result<void>> => {
    from = sender;
    receivedMeta = meta.toString();
    let n = 0;
    for await (const c of body) {
      receivedHash.update(c);
      consumed += c.length;
      maxLead = Math.max(maxLead, progress.produced - consumed);
      // A slow consumer: yield to the event loop often, sleep now and then.
      if (++n % 64 === 0) await new Promise((r) => setTimeout(r, 1));
      else await new Promise((r) => setImmediate(r));
    }
    return ok(undefined);
  });
  try {
    const sentHash = createHash('sha256');
    const body = lazyBody(total, 64 * 1024, progress);
    const hashing: AsyncIterable<Buffer> = {
      async *[Symbol.asyncIterator]() {
        for await (const c of body) {
          sentHash.update(c);
          yield c;
        }
      },
    };
    const result = await a.transport.sendSnapshot(2n, Buffer.from('{"index":42,"term":3}'), hashing);
    assert.deepEqual(result, { ok: true, value: undefined });
    assert.equal(from, 1n);
    assert.equal(receivedMeta, '{"index":42,"term":3}');
    assert.equal(consumed, total);
    assert.equal(receivedHash.digest('hex'), sentHash.digest('hex'));
    assert.ok(maxLead < 16 * MB, `producer ran ${(maxLead / MB).toFixed(1)} MB ahead of the consumer`);
    const sent = await a.registry.metrics();
    assert.match(sent, /kvstore_network_snapshot_send_success\{To="2"\} 1/);
    assert.match(sent, /kvstore_network_snapshot_send_inflights_total\{To="2"\} 0/);
    assert.match(sent, /kvstore_network_snapshot_send_total_duration_seconds_count\{To="2"\} 1/);
    const received = await b.registry.metrics();
    assert.match(received, /kvstore_network_snapshot_receive_success\{From="1"\} 1/);
  } finally {
    await closeAll([a, b]);
  }
});

void test('a refused snapshot never pulls the body (100-continue)', async () => {
  const a = await startMember({ id: 1n, host: '127.0.0.52' });
  const c = await startMember({ id: 3n, host: '127.0.0.53' });
  try {
    a.transport.addPeer(3n, [c.url()]);
    const progress = { produced: 0 };
    const result = await a.transport.sendSnapshot(3n, Buffer.from('m'), lazyBody(8 * MB, 64 * 1024, progress));
    assert.deepEqual(result, { ok: false, error: { kind: 'Rejected', status: 404, reason: 'error sender not found' } });
    assert.equal(progress.produced, 0);
    assert.match(await a.registry.metrics(), /kvstore_network_snapshot_send_failures\{To="3"\} 1/);
    const missing = await a.transport.sendSnapshot(9n, Buffer.from('m'), lazyBody(1, 1, { produced: 0 }));
    assert.deepEqual(missing, { ok: false, error: { kind: 'PeerNotFound', peerId: 9n } });
  } finally {
    await closeAll([a, c]);
  }
});

void test('handler failure comes back as Rejected 500 with the error kind', async () => {
  const [a, b] = await pair(async (_from, _meta, body) => {
    for await (const _c of body) break;
    return err('NoSpace');
  });
  try {
    const result = await a.transport.sendSnapshot(2n, Buffer.alloc(0), lazyBody(4 * MB, 64 * 1024, { produced: 0 }));
    assert.deepEqual(result, { ok: false, error: { kind: 'Rejected', status: 500, reason: 'NoSpace' } });
    assert.match(await b.registry.metrics(), /kvstore_network_snapshot_receive_failures\{From="1"\} 1/);
  } finally {
    await closeAll([a, b]);
  }
});

void test('a failing source is SourceFailed; the receiver sees a broken body', async () => {
  let bodyError = '';
  const [a, b] = await pair(async (_from, _meta, body) => {
    try {
      for await (const _c of body) {
        // drain
      }
      return ok(undefined);
    } catch (e) {
      bodyError = (e as Error).message;
      return err('Corrupt');
    }
  });
  try {
    const result = await a.transport.sendSnapshot(2n, Buffer.from('m'), lazyBody(8 * MB, 64 * 1024, { produced: 0 }, 2 * MB));
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.error.kind, 'SourceFailed');
    for (let i = 0; i < 200 && bodyError === ''; i++) await new Promise((r) => setTimeout(r, 10));
    assert.notEqual(bodyError, '');
  } finally {
    await closeAll([a, b]);
  }
});

void test('close aborts a snapshot in flight with Stopped', async () => {
  let started!: () => void;
  const receiving = new Promise<void>((r) => (started = r));
  const [a, b] = await pair(async (_from, _meta, body) => {
    started();
    try {
      for await (const _c of body) await new Promise((r) => setTimeout(r, 5));
      return ok(undefined);
    } catch {
      return err('Stopped');
    }
  });
  try {
    const sending = a.transport.sendSnapshot(2n, Buffer.from('m'), lazyBody(50 * MB, 64 * 1024, { produced: 0 }));
    await receiving;
    await a.transport.close();
    assert.deepEqual(await sending, { ok: false, error: { kind: 'Stopped' } });
  } finally {
    await closeAll([a, b]);
  }
});

void test('after close no socket, server, timer or immediate is left', async () => {
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(liveHandles(), []);
});
