/**
 * Loopback throughput of the peer transport (a measurement script, not a test):
 *   node dist-peer/test/unit/peer/throughput.bench.js [seconds-per-case]
 * The sender runs in the main thread, the receiver in a worker thread (two event loops, as
 * two members would have). The receiver acknowledges (case epoch, frames so far) once per
 * received batch over its own stream back, like a follower's append responses; the sender
 * keeps at most ~8 MB unacknowledged, so nothing is dropped. Window 1 measures round trips.
 * Prints frames/s and payload MB/s per frame size, then snapshot MB/s.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Registry } from 'prom-client';
import pino from 'pino';
import { ok } from '../../../server/errors/domain-error.js';
import { createPeerTransport, type PeerHandlers, type PeerTransport } from '../../../server/peer/index.js';

const silent = pino({ level: 'silent' });
const WINDOW_BYTES = 8 * 1024 * 1024;

function transport(id: bigint, handlers: PeerHandlers): PeerTransport {
  return createPeerTransport({
    localId: id,
    clusterId: 1n,
    listenUrls: [`http://127.0.0.${id === 1n ? 70 : 71}:0`],
    serverVersion: '3.4.45',
    minClusterVersion: '3.0.0',
    handlers,
    version: () => ({ etcdserver: '3.4.45', etcdcluster: '3.4.0' }),
    members: () => [],
    logger: silent,
    registry: new Registry(),
  });
}

async function receiver(senderUrl: string): Promise<void> {
  let count = 0;
  let epoch = 0;
  const t: PeerTransport = transport(2n, {
    onFrames(_from, frames) {
      count += frames.length;
      const a = Buffer.alloc(12);
      a.writeUInt32BE(epoch, 0);
      a.writeBigUInt64BE(BigInt(count), 4);
      t.send(1n, a);
    },
    async onSnapshot(_from, _meta, body) {
      for await (const _c of body) {
        // discard
      }
      return ok(undefined);
    },
    onUnreachable: () => undefined,
  });
  await t.start();
  t.addPeer(1n, [senderUrl]);
  parentPort?.on('message', (m: number | 'close') => {
    if (m === 'close') {
      void t.close().then(() => process.exit(0));
      return;
    }
    epoch = m;
    count = 0;
    parentPort?.postMessage('epoch-set');
  });
  parentPort?.postMessage({ url: t.boundUrls()[0] });
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  let acked = 0;
  let epoch = 0;
  const a = transport(1n, {
    onFrames(_from, frames) {
      for (const f of frames) if (f.readUInt32BE(0) === epoch) acked = Math.max(acked, Number(f.readBigUInt64BE(4)));
    },
    onSnapshot: () => Promise.resolve(ok(undefined)),
    onUnreachable: () => undefined,
  });
  await a.start();
  const worker = new Worker(new URL(import.meta.url), { workerData: { senderUrl: a.boundUrls()[0] } });
  const url = await new Promise<string>((resolve) => worker.once('message', (m: { url: string }) => resolve(m.url)));
  a.addPeer(2n, [url]);
  while (a.activeSince(2n) === undefined) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 200));

  const cases: [number, number | undefined][] = [[64, 1], [64, 16], [64, undefined], [256, undefined], [1024, undefined], [16 * 1024, undefined], [1024 * 1024, undefined]];
  for (const [size, fixedWindow] of cases) {
    epoch++;
    worker.postMessage(epoch);
    await new Promise((resolve) => worker.once('message', resolve));
    acked = 0;
    const droppedBefore = a.stats(2n)?.framesDropped ?? 0;
    const writesBefore = a.stats(2n)?.writes ?? 0;
    const window = fixedWindow ?? Math.max(8, Math.floor(WINDOW_BYTES / size));
    const perTurn = Math.max(1, Math.min(4000, Math.floor(window / 4)));
    const frame = Buffer.alloc(size, 1);
    let sent = 0;
    const start = performance.now();
    const until = start + seconds * 1000;
    while (performance.now() < until) {
      const room = Math.min(perTurn, acked + window - sent);
      for (let i = 0; i < room; i++) a.send(2n, frame);
      sent += Math.max(room, 0);
      await new Promise((r) => setImmediate(r));
    }
    const elapsed = (performance.now() - start) / 1000;
    const done = acked;
    while (acked < sent) await new Promise((r) => setTimeout(r, 5));
    const dropped = (a.stats(2n)?.framesDropped ?? 0) - droppedBefore;
    const writes = (a.stats(2n)?.writes ?? 0) - writesBefore;
    const rate = done / elapsed;
    console.log(
      `frames ${String(size).padStart(8)} B, window ${String(window).padStart(6)}: ${Math.round(rate).toLocaleString('en').padStart(10)} frames/s  ${((rate * size) / 1e6).toFixed(1).padStart(7)} MB/s  frames/write ${(sent / writes).toFixed(1)}  dropped ${dropped}`,
    );
  }

  const total = 512 * 1024 * 1024;
  const chunk = Buffer.alloc(256 * 1024, 3);
  const body: AsyncIterable<Buffer> = {
    async *[Symbol.asyncIterator]() {
      for (let n = 0; n < total; n += chunk.length) yield chunk;
    },
  };
  const s0 = performance.now();
  const r = await a.sendSnapshot(2n, Buffer.from('meta'), body);
  const s = (performance.now() - s0) / 1000;
  console.log(`snapshot ${total / 1024 / 1024} MiB: ${(total / 1e6 / s).toFixed(0)} MB/s (${r.ok ? 'ok' : JSON.stringify(r.error)})`);

  worker.postMessage('close');
  await new Promise((r2) => worker.once('exit', r2));
  await a.close();
}

if (isMainThread) void main();
else void receiver((workerData as { senderUrl: string }).senderUrl);
