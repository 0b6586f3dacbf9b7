/**
 * The Raft log's memory does not grow with the data written since the last snapshot: one member
 * at etcd's default --snapshot-count (100 000, so no snapshot is taken) takes 4 GiB of values in
 * 100 KiB puts — every one of them an entry of its log since the last snapshot — and its resident
 * size stays under 1 GiB after the load, and again after a kill -9 and a restart on the same
 * data dir, which replays that whole log (the member keeps where each entry's payload lies in the
 * WAL's files, not the payload: member.ts `logWindowBytes`, wal/segment-reader.ts). The last
 * values written, read back after the restart, are intact.
 *
 * Memory only, never time. Values are random (incompressible). KVSTORE_LOG_MEMORY_MIB sets the
 * size (default 4096). The data dir takes about three times the data (WAL, backend, LevelDB's
 * log and compactions): with less free space than that under the temp dir the test is skipped,
 * and says so.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { KVClient, type PutResponse, type RangeResponse } from '../../proto/gen/etcd/rpc.js';
import { startKvstore } from '../support/members.js';

const VALUE_BYTES = 100 * 1024;
const DATA_MIB = Number(process.env.KVSTORE_LOG_MEMORY_MIB ?? 4096);
const PUTS = Math.floor((DATA_MIB * 2 ** 20) / VALUE_BYTES);
if (!(PUTS >= 1)) throw new Error(`KVSTORE_LOG_MEMORY_MIB=${process.env.KVSTORE_LOG_MEMORY_MIB}: expected a positive number of MiB`);
const IN_FLIGHT = 16;
const RSS_LIMIT = 2 ** 30;
/** Values of the last puts, checked after the restart. */
const KEPT = 64;

const keyOf = (i: number): Buffer => Buffer.from(`log/${String(i).padStart(7, '0')}`);

function openKv(target: string): KVClient {
  return new KVClient(target, credentials.createInsecure(), { 'grpc.max_receive_message_length': 64 * 1024 * 1024 });
}

function put(kv: KVClient, key: Buffer, value: Buffer): Promise<PutResponse> {
  return new Promise((resolve, reject) => {
    kv.put({ key, value, lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false }, new Metadata(), { deadline: Date.now() + 120_000 }, (err: ServiceError | null, res) =>
      err ? reject(err) : resolve(res),
    );
  });
}

function get(kv: KVClient, key: Buffer): Promise<RangeResponse> {
  const req = {
    key, rangeEnd: Buffer.alloc(0), limit: 0n, revision: 0n, sortOrder: 0, sortTarget: 0, serializable: false, keysOnly: false, countOnly: false,
    minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
  };
  return new Promise((resolve, reject) => {
    kv.range(req, new Metadata(), { deadline: Date.now() + 120_000 }, (err: ServiceError | null, res) => (err ? reject(err) : resolve(res)));
  });
}

/** A figure of /proc/<pid>/status in bytes. */
function statusBytes(pid: number, field: 'VmRSS' | 'RssAnon' | 'RssFile' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`no ${field} for pid ${pid}`);
  return Number(m[1]) * 1024;
}

const mib = (n: number): string => (n / 2 ** 20).toFixed(0);

function memory(pid: number): string {
  const f = (k: 'VmRSS' | 'RssAnon' | 'RssFile' | 'VmHWM'): string => `${k} ${mib(statusBytes(pid, k))} MiB`;
  return [f('VmRSS'), f('RssAnon'), f('RssFile'), f('VmHWM')].join(', ');
}

/** Free bytes under the temp dir, where the member's data dir goes. */
function freeDiskBytes(): number {
  const s = statfsSync(tmpdir());
  return s.bavail * s.bsize;
}

const DISK_NEEDED = 3 * PUTS * VALUE_BYTES;

void describe('memory that does not grow with the log', () => {
  const free = freeDiskBytes();
  const skip = free < DISK_NEEDED ? `${mib(free)} MiB free under ${tmpdir()}, ${mib(DISK_NEEDED)} MiB needed` : false;
  void it(`${mib(PUTS * VALUE_BYTES)} MiB of values since the last snapshot: resident size under 1 GiB after the load and after kill -9`, { skip }, async (t) => {
    const member = await startKvstore({ args: [`--quota-backend-bytes=${8 * 2 ** 30}`], readyTimeoutMs: 300_000 });
    const kept = new Map<number, Buffer>();
    const kv = openKv(member.endpoint);
    let last = 0n;
    try {
      let next = 0;
      const writer = async (): Promise<void> => {
        for (let i = next++; i < PUTS; i = next++) {
          const value = randomBytes(VALUE_BYTES);
          if (i >= PUTS - KEPT) kept.set(i, value);
          const rev = (await put(kv, keyOf(i), value)).header!.revision;
          if (rev > last) last = rev;
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
    } finally {
      kv.close();
    }
    assert.ok(member.running, 'the member survived the load');
    t.diagnostic(`after the load: ${memory(member.pid)}`);
    assert.ok(statusBytes(member.pid, 'VmRSS') < RSS_LIMIT, `resident ${mib(statusBytes(member.pid, 'VmRSS'))} MiB after the load`);

    await member.kill9();
    await member.restart();
    t.diagnostic(`after kill -9 and restart: ${memory(member.pid)}`);
    const kv2 = openKv(member.endpoint);
    try {
      for (const [i, value] of kept) {
        const res = await get(kv2, keyOf(i));
        assert.equal(res.kvs.length, 1, `key ${i} is there`);
        assert.ok(res.kvs[0]!.value.equals(value), `value ${i} is intact`);
      }
      assert.equal((await get(kv2, keyOf(0))).header!.revision, last);
    } finally {
      kv2.close();
    }
    t.diagnostic(`after reading back: ${memory(member.pid)}`);
    assert.ok(statusBytes(member.pid, 'VmRSS') < RSS_LIMIT, `resident ${mib(statusBytes(member.pid, 'VmRSS'))} MiB after the restart`);
    assert.ok(statusBytes(member.pid, 'VmHWM') < RSS_LIMIT, `peak resident ${mib(statusBytes(member.pid, 'VmHWM'))} MiB during the restart`);
  });
});
