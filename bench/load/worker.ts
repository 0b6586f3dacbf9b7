/**
 * Load-generator child process (forked by run-load.ts; protocol in protocol.ts).
 *
 * Runs `spec.clients` closed-loop clients (one request in flight each) over `spec.connections`
 * connections. Counts and times only requests that complete inside the measurement window, and
 * reports its own CPU use over that window so the driver can say how much of the machine the
 * generator took.
 */
import { performance } from 'node:perf_hooks';
import type { KVClient } from '../../proto/gen/etcd/rpc.js';
import { openKv, waitConnected } from './channel.js';
import { newHistogram, record } from './histogram.js';
import type { LoadKindFactory } from './kind.js';
import type { FromWorker, LoadKindName, ToWorker, WorkerSpec } from './protocol.js';
import { putLoad } from './put.js';
import { rangeLoad } from './range.js';

const KINDS: Record<LoadKindName, LoadKindFactory> = { put: putLoad, range: rangeLoad };

const send = (msg: FromWorker): void => {
  process.send?.(msg);
};

const epochNow = (): number => performance.timeOrigin + performance.now();

let spec: WorkerSpec | null = null;
let clients: KVClient[] = [];

async function connect(s: WorkerSpec): Promise<void> {
  spec = s;
  clients = Array.from({ length: s.connections }, (_, j) => openKv(s.targets[(s.firstConnection + j) % s.targets.length]));
  await Promise.all(clients.map((kv) => waitConnected(kv, 10_000)));
  send({ type: 'ready' });
}

function run(s: WorkerSpec, startAt: number): void {
  const kind = KINDS[s.kind](s.params, s.workerIndex, s.workers);
  const hist = newHistogram();
  const windowStart = startAt + s.warmupMs;
  const windowEnd = windowStart + s.measureMs;
  let ok = 0;
  let errors = 0;
  let firstError: string | null = null;
  let stopped = false;
  let cpuAtStart: NodeJS.CpuUsage | null = null;
  let realStart = 0;

  const loop = (client: number, kv: KVClient): void => {
    if (stopped) return;
    const t0 = performance.now();
    kind.issue(kv, client, (err) => {
      const t1 = performance.now();
      const at = performance.timeOrigin + t1;
      if (at >= windowStart && at < windowEnd) {
        if (err) {
          errors++;
          firstError ??= err.message;
        } else {
          ok++;
          record(hist, (t1 - t0) * 1000);
        }
      }
      // Back off briefly after an error so a failing server is not hammered in a tight loop.
      if (err) setTimeout(() => loop(client, kv), 10);
      else loop(client, kv);
    });
  };

  setTimeout(() => {
    for (let c = 0; c < s.clients; c++) loop(c, clients[c % clients.length]);
  }, Math.max(0, startAt - epochNow()));
  setTimeout(() => {
    cpuAtStart = process.cpuUsage();
    realStart = performance.now();
  }, Math.max(0, windowStart - epochNow()));
  setTimeout(() => {
    stopped = true;
    const cpu = process.cpuUsage(cpuAtStart ?? undefined);
    send({
      type: 'result',
      result: {
        ok,
        errors,
        firstError,
        histogram: hist,
        cpuMicros: cpu.user + cpu.system,
        windowMs: performance.now() - realStart,
      },
    });
  }, Math.max(0, windowEnd - epochNow()));
}

// The driver is gone (killed, or exited without sending `exit`): nothing will read our result.
process.on('disconnect', () => process.exit(0));

process.on('message', (msg: ToWorker) => {
  switch (msg.type) {
    case 'connect':
      connect(msg.spec).catch((err: unknown) => send({ type: 'failed', message: String(err) }));
      break;
    case 'go':
      if (spec === null) send({ type: 'failed', message: 'go before connect' });
      else run(spec, msg.startAt);
      break;
    case 'exit':
      for (const kv of clients) kv.close();
      process.disconnect();
      process.exit(0);
  }
});
