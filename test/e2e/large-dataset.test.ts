/**
 * A data set several times the member's JS heap: one kvstore member started with a 96 MiB
 * old space (NODE_OPTIONS=--max-old-space-size=96) takes 512 MiB of values in 8192 records of
 * 64 KiB, stays up with a resident size well below the data it holds (values live in the
 * backend, not in memory), then restarts on the same data dir — still with the small heap —
 * and serves every record back intact (value, version, create/mod revision), by pages.
 * Values are incompressible (AES-CTR keystream of the record's index), so the backend holds
 * every byte of them.
 *
 * KVSTORE_LARGE_DATASET_MIB sets the size (default 512; `KVSTORE_LARGE_DATASET_MIB=3072 node
 * scripts/run-tests.mjs large-dataset` is the 3 GiB run, with an 8 GiB backend quota).
 *
 * The bound is on the member's private memory (RssAnon: JS heap, ArrayBuffers, malloc). Its
 * file-backed resident pages are reported beside it: LevelDB maps its table files, so every
 * table page a read touched counts in VmRSS as clean page cache the kernel reclaims under
 * pressure (as bbolt's map does for etcd) — after the restart's index rebuild and the read-back
 * that is most of the data set.
 *
 * A store that kept values in memory fails here: it dies of heap exhaustion or its private
 * memory exceeds the bound. Bounded: one put per 64 KiB, 16 in flight; one read pass by pages
 * of 64.
 */
import assert from 'node:assert/strict';
import { createCipheriv } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { KVClient, type PutResponse, type RangeRequest, type RangeResponse } from '../../proto/gen/etcd/rpc.js';
import { startKvstore } from '../support/members.js';

const RECORD_BYTES = 64 * 1024;
const DATA_MIB = Number(process.env.KVSTORE_LARGE_DATASET_MIB ?? 512);
const RECORDS = (DATA_MIB * 2 ** 20) / RECORD_BYTES;
if (!Number.isInteger(RECORDS) || RECORDS < 1) throw new Error(`KVSTORE_LARGE_DATASET_MIB=${process.env.KVSTORE_LARGE_DATASET_MIB}: expected a positive number of MiB`);
const CIPHER_KEY = Buffer.alloc(16, 0x6b);
const ZEROS = Buffer.alloc(RECORD_BYTES);
const IN_FLIGHT = 16;
const HEAP_MIB = 96;
const PAGE = 64;

const keyOf = (i: number): Buffer => Buffer.from(`big/${String(i).padStart(6, '0')}`);

/** Record i's value: its index in the first 4 bytes, then the AES-128-CTR keystream started at counter i. */
function valueOf(i: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(i, 0);
  const v = createCipheriv('aes-128-ctr', CIPHER_KEY, iv).update(ZEROS);
  v.writeUInt32BE(i, 0);
  return v;
}

function openKv(target: string): KVClient {
  return new KVClient(target, credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
  });
}

function put(kv: KVClient, key: Buffer, value: Buffer): Promise<PutResponse> {
  return new Promise((resolve, reject) => {
    kv.put({ key, value, lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false }, new Metadata(), { deadline: Date.now() + 60_000 }, (err: ServiceError | null, res) =>
      err ? reject(err) : resolve(res),
    );
  });
}

function range(kv: KVClient, key: Buffer, rangeEnd: Buffer, limit: number): Promise<RangeResponse> {
  const req: RangeRequest = {
    key, rangeEnd, limit: BigInt(limit), revision: 0n, sortOrder: 0, sortTarget: 0, serializable: false, keysOnly: false, countOnly: false,
    minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
  };
  return new Promise((resolve, reject) => {
    kv.range(req, new Metadata(), { deadline: Date.now() + 60_000 }, (err: ServiceError | null, res) => (err ? reject(err) : resolve(res)));
  });
}

/** A figure of /proc/<pid>/status in bytes: RssAnon (private), RssFile (mapped files), VmHWM (peak resident). */
function statusBytes(pid: number, field: 'RssAnon' | 'RssFile' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`no ${field} for pid ${pid}`);
  return Number(m[1]) * 1024;
}

const mib = (n: number): string => (n / 2 ** 20).toFixed(0);

void describe('a data set larger than the heap', () => {
  void it(`${(RECORDS * RECORD_BYTES) / 2 ** 20} MiB of values in a member with a ${HEAP_MIB} MiB heap, across a restart`, async (t) => {
    const member = await startKvstore({
      env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}` },
      args: ['--snapshot-count=100', `--quota-backend-bytes=${8 * 2 ** 30}`],
      readyTimeoutMs: 120_000,
    });
    const kv = openKv(member.endpoint);
    const revisions: bigint[] = new Array<bigint>(RECORDS);
    try {
      let next = 0;
      const writer = async (): Promise<void> => {
        for (let i = next++; i < RECORDS; i = next++) revisions[i] = (await put(kv, keyOf(i), valueOf(i))).header!.revision;
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
    } finally {
      kv.close();
    }
    assert.ok(member.running, 'the member survived the load');
    const dataBytes = RECORDS * RECORD_BYTES;
    const anon = statusBytes(member.pid, 'RssAnon');
    t.diagnostic(`after the load: private ${mib(anon)} MiB, mapped files ${mib(statusBytes(member.pid, 'RssFile'))} MiB, peak resident ${mib(statusBytes(member.pid, 'VmHWM'))} MiB`);
    assert.ok(anon < dataBytes / 2, `private memory ${mib(anon)} MiB after loading ${mib(dataBytes)} MiB stays below half of it`);

    await member.restart();
    const kv2 = openKv(member.endpoint);
    try {
      let seen = 0;
      let from = keyOf(0);
      const end = Buffer.from('big0');
      for (;;) {
        const page = await range(kv2, from, end, PAGE);
        for (const got of page.kvs) {
          const i = seen++;
          assert.deepEqual(got.key, keyOf(i));
          assert.ok(got.value.equals(valueOf(i)), `value of ${got.key.toString()} intact`);
          assert.equal(got.modRevision, revisions[i]);
          assert.equal(got.createRevision, revisions[i]);
          assert.equal(got.version, 1n);
        }
        if (!page.more) break;
        from = Buffer.concat([page.kvs[page.kvs.length - 1]!.key, Buffer.from([0])]);
      }
      assert.equal(seen, RECORDS);
    } finally {
      kv2.close();
    }
    assert.ok(member.running, 'the member survived the read-back');
    const anonAfter = statusBytes(member.pid, 'RssAnon');
    t.diagnostic(`after the restart and the read-back: private ${mib(anonAfter)} MiB, mapped files ${mib(statusBytes(member.pid, 'RssFile'))} MiB, peak resident ${mib(statusBytes(member.pid, 'VmHWM'))} MiB`);
    assert.ok(anonAfter < dataBytes / 2, `private memory ${mib(anonAfter)} MiB of the restarted member after reading back ${mib(dataBytes)} MiB stays below half of it`);
  });
});
