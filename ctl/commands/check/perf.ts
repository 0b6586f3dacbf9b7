/**
 * `check perf [--load s|m|l|xl] [--prefix P] [--auto-compact] [--auto-defrag]`: writes random
 * 256-byte keys with 1 KiB values under the prefix at the load's rate from its number of
 * concurrent writers for 60 s (`--duration`, a kvstorectl addition, shortens it), deletes them,
 * and judges throughput (> 90 % of the rate), slowest request (≤ 0.5 s) and standard
 * deviation (≤ 0.1 s): `PASS`, or `FAIL` with exit 1. A progress bar is drawn on a terminal.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { flagBool, flagString, type CommandSpec } from '../../cli/command-spec.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { ProgressBar } from '../snapshot/progress-bar.js';
import { PerfStats } from './perf-stats.js';

const LOADS: Readonly<Record<string, { readonly limit: number; readonly clients: number }>> = {
  s: { limit: 150, clients: 50 },
  m: { limit: 1000, clients: 200 },
  l: { limit: 8000, clients: 500 },
  xl: { limit: 15000, clients: 1000 },
};
const ALIASES: Readonly<Record<string, string>> = { s: 's', small: 's', m: 'm', medium: 'm', l: 'l', large: 'l', xl: 'xl', xLarge: 'xl' };

/** Go's %f: six decimals. */
const f6 = (x: number): string => x.toFixed(6);

/** A 256-byte key: a zig-zag varint of a random int63, zero padded (as etcdctl builds it). */
function randomKey(): Buffer {
  const k = Buffer.alloc(256);
  let v = randomBytes(8).readBigUInt64BE() >> 1n;
  v = v << 1n;
  let i = 0;
  while (v >= 0x80n) {
    k[i++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  k[i] = Number(v);
  return k;
}

export const checkPerfCommand: CommandSpec = {
  path: ['check', 'perf'],
  usage: '[options]',
  summary: 'Check the performance of the etcd cluster',
  options: (cmd) => {
    cmd
      .option('--load <model>', "The performance check's workload model. Accepted workloads: s(small), m(medium), l(large), xl(xLarge)", 's')
      .option('--prefix <prefix>', "The prefix for writing the performance check's keys.", '/etcdctl-check-perf/')
      .option('--auto-compact', 'Compact storage with last revision after test is finished.')
      .option('--auto-defrag', 'Defragment storage after test is finished.')
      .option('--duration <seconds>', 'How long the load runs (kvstorectl addition)', '60');
  },
  run: async (ctx, _args, flags) => {
    const loadText = flagString(flags, 'load', 's');
    const model = ALIASES[loadText];
    if (model === undefined) return ctx.fail(ExitCode.BadFeature, `unknown load option ${loadText}`);
    const cfg = LOADS[model];
    const duration = Number(flagString(flags, 'duration', '60'));
    if (!Number.isFinite(duration) || duration <= 0) return ctx.fail(ExitCode.BadArgs, `bad duration ${flagString(flags, 'duration')}`);
    const prefix = flagString(flags, 'prefix', '/etcdctl-check-perf/');
    const client = await ctx.mustClient();
    if (typeof client === 'number') return client;
    const existing = await client.kv.get(prefix, { prefix: true, limit: 1n, timeoutMs: duration * 1000 });
    if (!existing.ok) return ctx.fail(ExitCode.Error, existing.error.message);
    if (existing.value.kvs.length > 0) return ctx.fail(ExitCode.InvalidInput, `prefix ${JSON.stringify(prefix)} has keys. Delete with etcdctl del --prefix ${prefix} first`);

    const value = Buffer.alloc(1024);
    const stats = new PerfStats();
    const start = ctx.io.now();
    const end = start + duration * 1000;
    const bar = ctx.io.stderrIsTTY ? new ProgressBar(ctx.io.stderr, ctx.io.now) : undefined;
    const interval = 1000 / cfg.limit;
    let nextSlot = start;
    const takeSlot = async (): Promise<boolean> => {
      const slot = nextSlot;
      nextSlot += interval;
      if (slot >= end) return false;
      const wait = slot - ctx.io.now();
      if (wait > 0) await sleep(wait);
      return true;
    };
    const writer = async (): Promise<void> => {
      while (await takeSlot()) {
        const t0 = ctx.io.monotonicNs();
        const r = await client.kv.put(Buffer.concat([Buffer.from(prefix), randomKey()]), value, { timeoutMs: 0 });
        stats.record(Number(ctx.io.monotonicNs() - t0) / 1e9, r.ok ? undefined : r.error.message);
        bar?.update(ctx.io.now() - start, duration * 1000);
      }
    };
    await Promise.all(Array.from({ length: cfg.clients }, writer));
    bar?.finish(duration * 1000, duration * 1000);
    const elapsed = (ctx.io.now() - start) / 1000;

    const deleted = await client.kv.delete(prefix, { prefix: true, timeoutMs: 30_000 });
    if (!deleted.ok) return ctx.fail(ExitCode.Error, deleted.error.message);
    if (flagBool(flags, 'autoCompact')) {
      const c = await client.kv.compact(deleted.value.header?.revision ?? 0n);
      if (c.ok) ctx.io.stdout.write(`Compacted with revision ${deleted.value.header?.revision ?? 0n}\n`);
      else ctx.io.stderr.write(`Error: ${c.error.message}\n`);
    }
    if (flagBool(flags, 'autoDefrag')) {
      for (const ep of client.endpoints) {
        const d = await client.maintenance.defragment({ endpoint: ep });
        if (d.ok) ctx.io.stdout.write(`Defragmented ${JSON.stringify(ep)}\n`);
        else ctx.io.stderr.write(`Error: ${d.error.message}\n`);
      }
    }

    const out = (s: string): void => ctx.io.stdout.write(`${s}\n`);
    let ok = true;
    if (stats.errors.size > 0) {
      out('FAIL: too many errors');
      for (const [k, v] of stats.errors) out(`FAIL: ERROR(${k}) -> ${v}`);
      ok = false;
    }
    const rps = stats.rps(elapsed);
    if (rps / cfg.limit <= 0.9) {
      out(`FAIL: Throughput too low: ${Math.floor(rps) + 1} writes/s`);
      ok = false;
    } else out(`PASS: Throughput is ${Math.floor(rps) + 1} writes/s`);
    if (stats.slowest > 0.5) {
      out(`Slowest request took too long: ${f6(stats.slowest)}s`);
      ok = false;
    } else out(`PASS: Slowest request took ${f6(stats.slowest)}s`);
    if (stats.stddev > 0.1) {
      out(`Stddev too high: ${f6(stats.stddev)}s`);
      ok = false;
    } else out(`PASS: Stddev is ${f6(stats.stddev)}s`);
    out(ok ? 'PASS' : 'FAIL');
    return ok ? ExitCode.Success : ExitCode.Error;
  },
};
