// Property: for random interleavings of writes (with late, batched or lost notify calls), creates with
// random start revisions, cancels, compactions, history-read completions, back-pressure and progress
// requests, every watcher receives exactly the matching events of the log from its start revision —
// no skip, no repeat, in order, one (possibly fragmented) response per revision — ending with a compacted cancel only when
// its start was below a compaction; and every progress response covers all events up to its revision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Event_EventType, type Event } from '../../../proto/gen/etcd/kv.js';
import type { WatchResponse } from '../../../proto/gen/etcd/rpc.js';
import { rangeHas, turn, type Op, type Write } from './fake-log.js';
import type { WatchSession } from '../../../server/api/services.js';
import { createReq, k, world } from './harness.js';

const KEYS = ['a', 'b', 'c', 'd'] as const;
const RANGES: ReadonlyArray<readonly [string, string]> = [
  ['a', ''],
  ['b', ''],
  ['a', 'c'],
  ['b', '\x00'],
  ['\x00', '\x00'],
  ['c', 'd'],
];

type Cmd =
  | { t: 'write'; ops: Op[]; defer: boolean }
  | { t: 'flushNotify' }
  | { t: 'dropNotify' }
  | { t: 'create'; s: number; range: number; start: 'zero' | 'past' | 'future'; n: number; filter: number; prevKv: boolean; progressNotify: boolean; fragment: boolean }
  | { t: 'cancel'; s: number; n: number }
  | { t: 'compact'; n: number }
  | { t: 'resolve'; n: number }
  | { t: 'limit'; s: number; limit: number }
  | { t: 'drain'; s: number }
  | { t: 'progress'; s: number }
  | { t: 'tick' }
  | { t: 'close'; s: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ put: fc.constantFrom(...KEYS), value: fc.constantFrom('x', 'y', 'z') }),
  fc.record({ del: fc.constantFrom(...KEYS) }),
);
const sid = fc.nat({ max: 1 });
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 18, arbitrary: fc.record({ t: fc.constant('write' as const), ops: fc.uniqueArray(opArb, { minLength: 1, maxLength: 3, selector: (o) => ('put' in o ? o.put : o.del) }), defer: fc.boolean() }) },
  { weight: 3, arbitrary: fc.constant({ t: 'flushNotify' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'dropNotify' as const }) },
  {
    weight: 12,
    arbitrary: fc.record({
      t: fc.constant('create' as const),
      s: sid,
      range: fc.nat({ max: RANGES.length - 1 }),
      start: fc.constantFrom('zero' as const, 'past' as const, 'future' as const),
      n: fc.nat(),
      filter: fc.nat({ max: 3 }),
      prevKv: fc.boolean(),
      progressNotify: fc.boolean(),
      fragment: fc.boolean(),
    }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('cancel' as const), s: sid, n: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('compact' as const), n: fc.nat() }) },
  { weight: 15, arbitrary: fc.record({ t: fc.constant('resolve' as const), n: fc.nat() }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('limit' as const), s: sid, limit: fc.constantFrom(1, 2, 4, Infinity) }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('drain' as const), s: sid }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('progress' as const), s: sid }) },
  { weight: 2, arbitrary: fc.constant({ t: 'tick' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('close' as const), s: sid }) },
);

interface Spec {
  readonly key: string;
  readonly end: string;
  readonly start: bigint;
  readonly noPut: boolean;
  readonly noDelete: boolean;
  readonly prevKv: boolean;
}
interface Model {
  spec: Spec;
  start: bigint;
  got: string[];
  revInResponse: Map<bigint, number>;
  end?: { kind: 'client' } | { kind: 'compacted'; rev: bigint } | { kind: 'closed' };
}

const isCreate = (e: Event): boolean => e.type === Event_EventType.PUT && e.kv?.createRevision === e.kv?.modRevision;
const canon = (e: Event, withPrev: boolean): string =>
  `${e.type}|${e.kv?.key.toString('latin1')}|${e.kv?.modRevision}|${e.kv?.value.toString()}|${withPrev && e.prevKv ? `${e.prevKv.value.toString()}@${e.prevKv.modRevision}` : '-'}`;

function expected(all: readonly Event[], m: Model, upTo?: bigint): string[] {
  return all
    .filter((e) => {
      const kv = e.kv;
      if (!kv || kv.modRevision < m.start || (upTo !== undefined && kv.modRevision > upTo)) return false;
      if (!rangeHas(m.spec.key, m.spec.end, kv.key.toString('latin1'))) return false;
      return !(m.spec.noPut && e.type === Event_EventType.PUT) && !(m.spec.noDelete && e.type === Event_EventType.DELETE);
    })
    .map((e) => canon(e, m.spec.prevKv && !isCreate(e)));
}

async function run(cmds: Cmd[]): Promise<void> {
  const w = world({ maxPendingEvents: 3, catchUpRevisions: 4, catchUpConcurrency: 2, maxEventBytes: 50 });
  const violations: string[] = [];
  const queued: Write[] = [];
  const flush = (): void => {
    for (const q of queued.splice(0)) w.hub.notify(q.revision, q.events);
  };

  interface Side {
    session: WatchSession;
    waiters: Array<() => void>;
    limit: number;
    buffered: number;
    closed: boolean;
    pending: Spec[];
    models: Map<bigint, Model>;
    ended: Model[];
    /** Responses seen; the parts of one fragmented response count once. */
    responses: number;
    continuing: boolean;
  }
  const sides: Side[] = [];
  const onResponse = (side: Side, r: WatchResponse): void => {
    if (!side.continuing) side.responses++;
    side.continuing = r.fragment;
    const m = side.models.get(r.watchId);
    if (r.created) {
      const spec = side.pending.shift();
      if (!spec || r.canceled || r.watchId < 0n) return void violations.push(`unexpected create reply ${r.watchId}`);
      if (m) return void violations.push(`id ${r.watchId} reused while alive`);
      const hdr = r.header?.revision ?? -1n;
      const start = spec.start === 0n ? hdr + 1n : spec.start;
      side.models.set(r.watchId, { spec, start, got: [], revInResponse: new Map() });
      return;
    }
    if (r.watchId === -1n || (r.events.length === 0 && !r.canceled)) {
      const rev = r.header?.revision ?? 0n;
      const covered = r.watchId === -1n ? [...side.models.values()] : m ? [m] : [];
      for (const cm of covered) {
        const want = expected(w.log.all, cm, rev);
        if (cm.got.length !== want.length) violations.push(`progress ${rev} on ${r.watchId} but watcher has ${cm.got.length}/${want.length} events`);
      }
      return;
    }
    if (!m) return void violations.push(`response for unknown watcher ${r.watchId}`);
    if (r.canceled) {
      side.models.delete(r.watchId);
      m.end = r.compactRevision > 0n ? { kind: 'compacted', rev: r.compactRevision } : { kind: 'client' };
      if (r.compactRevision > 0n && r.header?.revision !== 0n) violations.push('compacted cancel with header revision ≠ 0');
      side.ended.push(m);
      return;
    }
    for (const e of r.events) {
      const rev = e.kv?.modRevision ?? -1n;
      const seen = m.revInResponse.get(rev);
      if (seen !== undefined && seen !== side.responses) violations.push(`revision ${rev} split across responses`);
      m.revInResponse.set(rev, side.responses);
      m.got.push(canon(e, e.prevKv !== undefined));
    }
  };
  for (let i = 0; i < 2; i++) {
    const side: Side = { session: undefined as unknown as WatchSession, waiters: [], limit: Infinity, buffered: 0, closed: false, pending: [], models: new Map(), ended: [], responses: 0, continuing: false };
    side.session = w.hub.openWatch(
      (r) => {
        onResponse(side, r);
        side.buffered++;
        return side.buffered < side.limit;
      },
      { drained: () => new Promise<void>((resolve) => side.waiters.push(resolve)) },
    );
    sides.push(side);
  }
  const drain = async (side: Side): Promise<void> => {
    side.buffered = 0;
    for (const resolve of side.waiters.splice(0)) resolve();
    await turn();
  };

  for (const c of cmds) {
    switch (c.t) {
      case 'write': {
        const wr = w.log.write(c.ops);
        if (wr) queued.push(wr);
        if (!c.defer) flush();
        break;
      }
      case 'flushNotify':
        flush();
        break;
      case 'dropNotify':
        queued.length = 0;
        break;
      case 'create': {
        const side = sides[c.s] as Side;
        if (side.closed) break;
        const [key, end] = RANGES[c.range] as readonly [string, string];
        const cur = w.log.revision;
        const start = c.start === 'zero' ? 0n : c.start === 'past' ? 1n + (BigInt(c.n) % cur) : cur + 1n + BigInt(c.n % 3);
        const spec: Spec = { key, end, start, noPut: (c.filter & 1) !== 0, noDelete: (c.filter & 2) !== 0, prevKv: c.prevKv };
        side.pending.push(spec);
        const filters = [...(spec.noPut ? [0] : []), ...(spec.noDelete ? [1] : [])];
        side.session.request(createReq({ key: k(key), rangeEnd: k(end), startRevision: start, filters, prevKv: c.prevKv, progressNotify: c.progressNotify, fragment: c.fragment }));
        break;
      }
      case 'cancel': {
        const side = sides[c.s] as Side;
        const ids = [...side.models.keys()];
        if (ids.length > 0) side.session.request({ requestUnion: { $case: 'cancelRequest', value: { watchId: ids[c.n % ids.length] as bigint } } });
        break;
      }
      case 'compact': {
        const lo = w.log.compactRevision;
        if (w.log.revision > lo) w.compact(lo + 1n + (BigInt(c.n) % (w.log.revision - lo)));
        break;
      }
      case 'resolve':
        await w.port.resolveOne(c.n);
        break;
      case 'limit':
        (sides[c.s] as Side).limit = c.limit;
        break;
      case 'drain':
        await drain(sides[c.s] as Side);
        break;
      case 'progress':
        (sides[c.s] as Side).session.request({ requestUnion: { $case: 'progressRequest', value: {} } });
        break;
      case 'tick':
        w.hub.progressTick();
        break;
      case 'close': {
        const side = sides[c.s] as Side;
        if (side.closed) break;
        side.closed = true;
        side.session.close();
        for (const m of side.models.values()) side.ended.push({ ...m, end: { kind: 'closed' } });
        side.models.clear();
        break;
      }
    }
  }

  // Quiesce: deliver late notifications, make sure the hub sees the last revision, unblock, settle reads.
  flush();
  const last = w.log.write([{ put: 'zz', value: 'end' }]);
  if (last) w.hub.notify(last.revision, last.events);
  for (let i = 0; i < 1000; i++) {
    for (const s of sides) {
      s.limit = Infinity;
      await drain(s);
    }
    await w.port.settle();
    const st = w.hub.stats();
    if (w.port.pendingCount === 0 && st.slowWatchers === 0 && st.pendingEvents === 0) break;
  }

  assert.deepEqual(violations, []);
  let alive = 0;
  for (const side of sides) {
    if (!side.closed) assert.deepEqual(side.pending, [], 'every create got its created reply');
    for (const m of side.models.values()) {
      alive++;
      assert.deepEqual(m.got, expected(w.log.all, m), 'a live watcher has exactly the matching events');
    }
    for (const m of side.ended) {
      const want = expected(w.log.all, m);
      assert.deepEqual(m.got, want.slice(0, m.got.length), 'an ended watcher has a prefix of the matching events');
      if (m.end?.kind === 'compacted') {
        assert.ok(m.start < m.end.rev, `compacted cancel (${m.end.rev}) only when start (${m.start}) is below it`);
        assert.ok(m.end.rev <= w.log.compactRevision);
        const missing = want.slice(m.got.length)[0];
        if (missing !== undefined) assert.ok(BigInt(missing.split('|')[2] as string) >= m.start);
        for (const g of m.got) assert.ok(BigInt(g.split('|')[2] as string) < m.end.rev, 'events received before the compacted cancel are below it');
      }
    }
  }
  assert.deepEqual(w.hub.stats(), { streams: sides.filter((s) => !s.closed).length, watchers: alive, slowWatchers: 0, pendingEvents: 0 });
}

void test('watch streams never skip, repeat or reorder events under random interleavings', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(cmdArb, { minLength: 40, maxLength: 160 }), (cmds) => run(cmds)),
    { numRuns: 400 },
  );
});
