/**
 * A data set several times the member's JS heap: one kvstore member started with a 96 MiB
 * old space (NODE_OPTIONS=--max-old-space-size=96) takes 512 MiB of values in 8192 records of
 * 64 KiB, stays up with a resident size well below the data it holds (values live in the
 * backend, not in memory), then restarts on the same data dir — still with the small heap —
 * and serves every record back intact (value, version, create/mod revision), by pages.
 *
 * A store that kept values in memory fails here: it dies of heap exhaustion or its RSS
 * exceeds the bound. Bounded: 8192 puts, 16 in flight; one read pass of 128 pages.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { KVClient, type PutResponse, type RangeRequest, type RangeResponse } from '../../proto/gen/etcd/rpc.js';
import { startKvstore } from '../support/members.js';

const RECORDS = 8192;
const RECORD_BYTES = 64 * 1024;
const IN_FLIGHT = 16;
const HEAP_MIB = 96;
const PAGE = 64;

const keyOf = (i: number): Buffer => Buffer.from(`big/${String(i).padStart(6, '0')}`);

/** Record i's value: its index in the first 4 bytes, then a byte pattern of i. */
function valueOf(i: number): Buffer {
  const v = Buffer.alloc(RECORD_BYTES, (i * 31) & 0xff);
  v.writeUInt32BE(i, 0);
  v.writeUInt32BE(i ^ 0x5a5a5a5a, RECORD_BYTES - 4);
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

function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) * 1024;
}

void describe('a data set larger than the heap', () => {
  void it(`${(RECORDS * RECORD_BYTES) / 2 ** 20} MiB of values in a member with a ${HEAP_MIB} MiB heap, across a restart`, async (t) => {
    const member = await startKvstore({
      env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}` },
      args: ['--snapshot-count=100'],
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
    const rss = rssBytes(member.pid);
    t.diagnostic(`RSS after the load: ${(rss / 2 ** 20).toFixed(0)} MiB`);
    assert.ok(rss < dataBytes / 2, `RSS ${(rss / 2 ** 20).toFixed(0)} MiB after loading ${dataBytes / 2 ** 20} MiB stays below half of it`);

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
  });
});
