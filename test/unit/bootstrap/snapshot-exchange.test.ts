/**
 * Both ends of the snapshot exchange (server/bootstrap/snapshot-exchange.ts) with a stand-in
 * member and transport, and the install a stop interrupted (finish-install.ts):
 * - the leader sends the state image of its pinned store at the view's consistent index and
 *   reports success; a transport failure, a transport that never reads the body and a producer
 *   that fails (ledger and view disagree) are reported as failed sends and logged, and the
 *   pinned view is released on every path;
 * - the follower refuses a body whose SHA-256 does not match (an error value, no file kept);
 * - at start, a kept `<index>.snap.db` is checked and loaded, and removed once loaded; a kept
 *   KVSNAP01 `.snap.kv` of an older version, a missing image and a corrupted one stop the start
 *   with a message saying so, while a bbolt image an older version kept as `.snap.kv` is
 *   loaded; image files of no pending install are removed.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pino, type Logger } from 'pino';
import { finishInterruptedInstall, removeStaleImages } from '../../../server/bootstrap/finish-install.js';
import { imagePath, legacyImagePath, snapshotExchange, type SnapshotExchangeDeps } from '../../../server/bootstrap/snapshot-exchange.js';
import type { Member } from '../../../server/member/member.js';
import { decodeMessage, encodeMessage } from '../../../server/member/message-codec.js';
import { readMeta } from '../../../server/mvcc/meta.js';
import { openMvccStore, type MvccStoreImpl } from '../../../server/mvcc/store.js';
import type { PeerResult, PeerTransport } from '../../../server/peer/index.js';
import { message, MessageType, type Message } from '../../../server/raft/index.js';
import { checkTrailer } from '../../../server/snapshot/state-image/sha256-trailer.js';
import { loadImageBytes } from '../../../server/snapshot/state-image/load.js';
import { openLevelBackend } from '../../../server/storage/level-backend.js';
import type { Backend } from '../../../server/storage/backend.js';
import { dump, filledStore, putsOf, stateImageOf } from '../snapshot/state-image-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'snapshot-exchange-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirNo = 0;
const freshDir = (): string => mkdtempSync(join(root, `d${++dirNo}-`));

function capturedLogger(): { logger: Logger; lines: () => { msg: string }[] } {
  const out: string[] = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => void out.push(s) });
  return { logger, lines: () => out.map((l) => JSON.parse(l) as { msg: string }) };
}

const snapMessage: Message = message({
  type: MessageType.MsgSnap,
  from: 1n,
  to: 2n,
  term: 3,
  snapshot: { metadata: { index: 10, term: 3, confState: { voters: [1n, 2n], learners: [] } }, data: Buffer.alloc(0) },
});

interface Sent {
  readonly reports: boolean[];
  readonly bodies: Buffer[];
  readonly metas: Buffer[];
}

/** Leader-side deps over `store` and its `backend`: `send` decides what the transport does with the body. */
function leaderDeps(store: MvccStoreImpl, backend: Backend, send: (body: AsyncIterable<Buffer>) => Promise<PeerResult<void>>, logger: Logger): { deps: SnapshotExchangeDeps; sent: Sent } {
  const sent: Sent = { reports: [], bodies: [], metas: [] };
  const member = {
    flush: () => Promise.resolve(),
    snapshotAt: (m: Message, index: number): Message => ({ ...m, snapshot: { ...m.snapshot!, metadata: { ...m.snapshot!.metadata, index } } }),
    reportSnapshot: (_to: bigint, ok: boolean) => void sent.reports.push(ok),
  } as unknown as Member;
  const transport = {
    sendSnapshot: (_to: bigint, meta: Buffer, body: AsyncIterable<Buffer>) => {
      sent.metas.push(meta);
      return send(body);
    },
  } as unknown as PeerTransport;
  const deps = { member: () => member, transport: () => transport, store, backend, snapDir: freshDir(), logger } as unknown as SnapshotExchangeDeps;
  return { deps, sent };
}

/** A store whose pinned views are counted while open; `skew` makes the ledger disagree with the view. */
function countingStore(store: MvccStoreImpl, open: { n: number }, skew = false): MvccStoreImpl {
  return {
    pinSnapshot: async () => {
      const pinned = await store.pinSnapshot();
      open.n++;
      const v = pinned.view;
      const valueLength = Uint32Array.from(pinned.records.valueLength);
      if (skew) valueLength[valueLength.length - 2]! += 3;
      return { view: { get: v.get.bind(v), iterate: v.iterate.bind(v), batches: v.batches.bind(v), close: () => ((open.n -= 1), v.close()) }, records: { ...pinned.records, valueLength } };
    },
  } as unknown as MvccStoreImpl;
}

async function readAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of body) parts.push(p);
  return Buffer.concat(parts);
}

void test('the leader sends the image of its pinned store at the view’s index and reports success', async () => {
  const source = await filledStore(5000, 321, 'lead');
  const open = { n: 0 };
  const { logger } = capturedLogger();
  const { deps, sent } = leaderDeps(countingStore(source.store, open), source.backend, async (body) => {
    sent.bodies.push(await readAll(body));
    return { ok: true, value: undefined };
  }, logger);
  await snapshotExchange(deps).send(snapMessage);
  assert.deepEqual(sent.reports, [true]);
  assert.equal(open.n, 0, 'view released');
  const meta = decodeMessage(sent.metas[0]!);
  assert.ok(meta.ok && meta.value.snapshot?.metadata.index === 321, 're-pointed at the consistent index');
  assert.ok(checkTrailer(sent.bodies[0]!).ok);
  const target = (await filledStore(10, 1, 'x')).backend;
  await loadImageBytes(target, sent.bodies[0]!);
  assert.deepEqual(await dump(target), await dump(source.backend));
});

void test('a failed transport, an unread body and a failing producer are failed sends, logged, the view released', async () => {
  const source = await filledStore(5000, 5, 'fail');
  const cases: [string, boolean, (body: AsyncIterable<Buffer>) => Promise<PeerResult<void>>][] = [
    ['transport unreachable after a few pieces', false, async (body) => {
      let n = 0;
      for await (const piece of body) if (piece.length > 0 && ++n === 2) break;
      return { ok: false, error: { kind: 'Unreachable', message: 'connection reset' } };
    }],
    ['transport never reads the body', false, () => Promise.resolve({ ok: false, error: { kind: 'Stopped' } })],
    ['ledger and view disagree', true, async (body) => {
      try {
        await readAll(body);
        return { ok: true, value: undefined };
      } catch (e) {
        return { ok: false, error: { kind: 'SourceFailed', message: String(e), cause: e } };
      }
    }],
  ];
  for (const [what, skew, send] of cases) {
    const open = { n: 0 };
    const { logger, lines } = capturedLogger();
    const { deps, sent } = leaderDeps(countingStore(source.store, open, skew), source.backend, send, logger);
    await snapshotExchange(deps).send(snapMessage);
    assert.equal(sent.metas.length, 1, `${what}: handed to the transport`);
    assert.deepEqual(sent.reports, [false], what);
    assert.equal(open.n, 0, `${what}: view released`);
    assert.ok(lines().some((l) => l.msg === 'failed to send database snapshot'), `${what}: logged`);
  }
});

void test('the follower refuses a body whose SHA-256 does not match, keeping no file', async () => {
  const filled = await filledStore(1000, 8, 'recv');
  const body = Buffer.concat(await stateImageOf(filled));
  body[body.length - 1]! ^= 1;
  const { logger, lines } = capturedLogger();
  let handed = 0;
  const snapDir = freshDir();
  const deps = { member: () => ({ receiveSnapshot: () => void handed++ }), snapDir, logger } as unknown as SnapshotExchangeDeps;
  const res = await snapshotExchange(deps).receive(1n, encodeMessage(snapMessage), (async function* () {
    yield body;
  })());
  assert.ok(!res.ok && res.error.kind === 'Internal' && /SHA-256/.test(res.error.message));
  assert.equal(handed, 0, 'not handed to the member');
  assert.deepEqual(readdirSync(snapDir), []);
  assert.ok(lines().some((l) => l.msg === 'failed to receive database snapshot'));
});

void test('at start, a kept .snap.db is checked, loaded into the backend and removed', async () => {
  const source = await filledStore(4000, 900, 'kept');
  const body = Buffer.concat(await stateImageOf(source));
  const snapDir = freshDir();
  writeFileSync(imagePath(snapDir, 900), body);
  writeFileSync(imagePath(snapDir, 12) + '.part', 'half a receive');
  writeFileSync(imagePath(snapDir, 13), 'an install done but not removed');
  assert.equal(await removeStaleImages(snapDir, 900), 2);
  assert.deepEqual(readdirSync(snapDir), ['0000000000000384.snap.db']);
  const backend = await openLevelBackend(join(snapDir, 'db'));
  try {
    const other = await filledStore(30, 4, 'other');
    await backend.write(await putsOf(other.backend));
    const store = await openMvccStore(backend);
    assert.equal(store.consistentIndex, 4n);
    await finishInterruptedInstall({ snapDir, backend, store, logger: capturedLogger().logger }, 900);
    assert.equal(store.consistentIndex, 900n, 'the store reloaded');
    assert.deepEqual(await dump(backend), await dump(source.backend));
    assert.equal((await readMeta(backend)).consistentIndex, 900n);
    assert.ok(!existsSync(imagePath(snapDir, 900)), 'image removed once loaded');
  } finally {
    await backend.close();
  }
});

void test('at start, a KVSNAP01 image, a missing image and a corrupted one stop the start with a message', async () => {
  const { backend, store } = await filledStore(10, 3, 'stop');
  const logger = capturedLogger().logger;
  const legacyDir = freshDir();
  writeFileSync(legacyImagePath(legacyDir, 50), 'KVSNAP01...');
  assert.equal(await removeStaleImages(legacyDir, 50), 0, 'the pending one is kept');
  await assert.rejects(finishInterruptedInstall({ snapDir: legacyDir, backend, store, logger }, 50), /KVSNAP01 format of an older kvstore.*Start this member once with the version that received it/);
  await assert.rejects(finishInterruptedInstall({ snapDir: freshDir(), backend, store, logger }, 50), /state image .*0000000000000032\.snap\.db is missing/);
  const badDir = freshDir();
  const body = Buffer.concat(await stateImageOf({ backend, store }));
  body[100]! ^= 1;
  writeFileSync(imagePath(badDir, 50), body);
  await assert.rejects(finishInterruptedInstall({ snapDir: badDir, backend, store, logger }, 50), /fails its check \(expected sha256/);
  assert.equal(store.consistentIndex, 3n, 'nothing loaded');
});

void test('at start, a bbolt image an older version kept as .snap.kv (received from a newer leader) is loaded', async () => {
  const source = await filledStore(500, 60, 'mixed');
  const body = Buffer.concat(await stateImageOf(source));
  const { backend, store } = await filledStore(10, 3, 'old-build');
  const snapDir = freshDir();
  writeFileSync(legacyImagePath(snapDir, 60), body);
  await finishInterruptedInstall({ snapDir, backend, store, logger: capturedLogger().logger }, 60);
  assert.deepEqual(await dump(backend), await dump(source.backend));
  assert.equal(store.consistentIndex, 60n);
  assert.deepEqual(readdirSync(snapDir), []);
});
