/**
 * The proxy's watch coalescing core, driven as the proxy drives it: client requests in, member
 * responses in, effects out. Member watch ids are what a member assigns (0, 1, … per stream).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Event_EventType, type Event } from '../../../proto/gen/etcd/kv.js';
import type { WatchCreateRequest, WatchResponse } from '../../../proto/gen/etcd/rpc.js';
import { response, WatchCoalescer, type Effect } from '../../../server/proxy/watch-coalescer.js';

const header = (rev: number) => ({ clusterId: 1n, memberId: 2n, revision: BigInt(rev), raftTerm: 3n });

function create(key: string, o: Partial<WatchCreateRequest> = {}): WatchCreateRequest {
  return { key: Buffer.from(key), rangeEnd: Buffer.alloc(0), startRevision: 0n, progressNotify: false, filters: [], prevKv: false, watchId: 0n, fragment: false, ...o };
}

function ev(key: string, rev: number, type = Event_EventType.PUT): Event {
  const kv = { key: Buffer.from(key), createRevision: BigInt(rev), modRevision: BigInt(rev), version: 1n, value: Buffer.from(`v${rev}`), lease: 0n };
  return { type, kv, prevKv: { ...kv, modRevision: BigInt(rev - 1), value: Buffer.from('old') } };
}

const events = (memberId: bigint, rev: number, ...evs: Event[]): WatchResponse => response({ header: header(rev), watchId: memberId, events: evs });
const created = (memberId: bigint, rev: number): WatchResponse => response({ header: header(rev), watchId: memberId, created: true });

const toMember = (fx: Effect[]) => fx.filter((e) => e.to === 'member').map((e) => (e.to === 'member' ? e.request.requestUnion : undefined));
const toClient = (fx: Effect[], client: number) => fx.flatMap((e) => (e.to === 'client' && e.client === client ? [e.response] : []));
const revs = (rs: WatchResponse[]) => rs.map((r) => r.events.map((e) => Number(e.kv!.modRevision)));

void describe('WatchCoalescer', () => {
  void it('watchers on one range share one upstream watch; each gets created with its own id, then every event', () => {
    const c = new WatchCoalescer();
    const first = c.create(1, create('a'));
    assert.equal(toMember(first).length, 1);
    assert.equal(toClient(first, 1).length, 0, 'created waits for the member');
    const fx = c.fromMember(created(0n, 10));
    assert.deepEqual(toClient(fx, 1).map((r) => [r.watchId, r.created, r.header?.revision]), [[0n, true, 10n]]);
    const joined = [...c.create(2, create('a')), ...c.create(3, create('a')), ...c.create(2, create('a'))];
    assert.equal(toMember(joined).length, 0, 'no second upstream watch');
    assert.deepEqual(toClient(joined, 2).map((r) => [r.watchId, r.created, r.header?.revision]), [[0n, true, 10n], [1n, true, 10n]]);
    const out = [...c.fromMember(events(0n, 11, ev('a', 11))), ...c.fromMember(events(0n, 12, ev('a', 12)))];
    assert.deepEqual(revs(toClient(out, 1)), [[11], [12]]);
    assert.deepEqual(revs(toClient(out, 3)), [[11], [12]]);
    assert.deepEqual(toClient(out, 2).map((r) => r.watchId), [0n, 1n, 0n, 1n]);
    assert.equal(c.upstreamCreates, 1);
    assert.equal(c.broadcasts, 1);
  });

  void it('a different range, or fragment asked, is another upstream watch', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a'));
    assert.equal(toMember(c.create(1, create('a', { rangeEnd: Buffer.from('b') }))).length, 1);
    assert.equal(toMember(c.create(1, create('a', { fragment: true }))).length, 1);
    assert.equal(c.upstreamCreates, 3);
  });

  void it('filters, prev_kv and progress notifications apply per watcher', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a', { filters: [0], prevKv: true, progressNotify: true }));
    c.create(2, create('a'));
    c.fromMember(created(0n, 5));
    const fx = c.fromMember(events(0n, 7, ev('a', 6), ev('a', 7, Event_EventType.DELETE)));
    assert.deepEqual(revs(toClient(fx, 1)), [[7]], 'NOPUT drops the put');
    assert.ok(toClient(fx, 1)[0]!.events[0]!.prevKv !== undefined, 'prev_kv kept when asked');
    assert.deepEqual(revs(toClient(fx, 2)), [[6, 7]]);
    assert.ok(toClient(fx, 2)[0]!.events.every((e) => e.prevKv === undefined), 'prev_kv dropped when not asked');
    const filteredOut = c.fromMember(events(0n, 8, ev('a', 8)));
    assert.equal(toClient(filteredOut, 1).length, 0, 'a response whose events are all filtered is not sent');
    const progress = c.fromMember(response({ header: header(9), watchId: 0n }));
    assert.deepEqual(toClient(progress, 1).map((r) => [r.watchId, r.header?.revision]), [[0n, 9n]]);
    assert.equal(toClient(progress, 2).length, 0, 'no progress notification unless asked');
  });

  void it('an older start revision gets its own upstream watch, then joins the shared one once caught up', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a'));
    c.fromMember(created(0n, 10));
    c.fromMember(events(0n, 11, ev('a', 11)));
    const own = c.create(2, create('a', { startRevision: 9n }));
    assert.equal(toMember(own).length, 1, 'history needs its own watch');
    const got = [...c.fromMember(created(1n, 11)), ...c.fromMember(events(1n, 11, ev('a', 9)))];
    assert.equal(c.broadcasts, 2, 'behind the shared one: stays on its own');
    got.push(...c.fromMember(events(1n, 11, ev('a', 11))));
    const cancel = toMember(got);
    assert.deepEqual(cancel, [{ $case: 'cancelRequest', value: { watchId: 1n } }], 'caught up: its upstream watch is cancelled');
    assert.equal(c.broadcasts, 1);
    got.push(...c.fromMember(events(0n, 12, ev('a', 12))));
    assert.deepEqual(revs(toClient(got, 2).filter((r) => !r.created)), [[9], [11], [12]], 'no skip, no repeat');
    assert.deepEqual(revs(toClient(got, 1)), [[12]]);
  });

  void it('a current watcher does not join a watch still replaying history', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a', { startRevision: 2n }));
    c.fromMember(created(0n, 10));
    c.fromMember(events(0n, 10, ev('a', 3)));
    assert.equal(toMember(c.create(2, create('a'))).length, 1);
  });

  void it('a future start revision joins and sees nothing before it', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a'));
    c.fromMember(created(0n, 10));
    assert.equal(toMember(c.create(2, create('a', { startRevision: 13n }))).length, 0);
    const fx = [...c.fromMember(events(0n, 12, ev('a', 12))), ...c.fromMember(events(0n, 13, ev('a', 13)))];
    assert.deepEqual(revs(toClient(fx, 2).filter((r) => !r.created)), [[13]]);
  });

  void it('cancel answers the watcher; the last one leaving cancels the upstream watch', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a'));
    c.create(2, create('a'));
    c.fromMember(created(0n, 4));
    const one = c.cancel(1, 0n);
    assert.deepEqual(toClient(one, 1).map((r) => [r.watchId, r.canceled]), [[0n, true]]);
    assert.equal(toMember(one).length, 0);
    assert.deepEqual(c.cancel(1, 0n), [], 'unknown id: ignored');
    assert.equal(revs(toClient(c.fromMember(events(0n, 5, ev('a', 5))), 1)).length, 0, 'a cancelled watcher gets nothing');
    assert.deepEqual(toMember(c.clientGone(2)), [{ $case: 'cancelRequest', value: { watchId: 0n } }]);
    assert.equal(c.broadcasts, 0);
  });

  void it('a compaction cancel reaches every watcher of the shared watch with compact_revision', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a', { startRevision: 2n }));
    c.create(2, create('a', { startRevision: 3n }));
    c.fromMember(created(0n, 20));
    const fx = c.fromMember(response({ header: header(0), watchId: 0n, canceled: true, compactRevision: 15n }));
    for (const [client, id] of [[1, 0n], [2, 0n]] as const) {
      assert.deepEqual(toClient(fx, client).map((r) => [r.watchId, r.canceled, r.compactRevision]), [[id, true, 15n]]);
    }
    assert.equal(c.broadcasts, 0);
    assert.equal(toMember(c.create(1, create('a'))).length, 1, 'ids freed, a new watch is a new upstream watch');
  });

  void it('created replies keep request order on a stream; a refused create answers watch_id -1', () => {
    const c = new WatchCoalescer();
    c.create(9, create('b'));
    c.fromMember(created(0n, 3));
    const fx = [...c.create(1, create('a')), ...c.create(1, create('b')), ...c.create(1, create('b', { rangeEnd: Buffer.from('a') }))];
    assert.equal(toClient(fx, 1).length, 0, 'the second and third wait for the first');
    const after = c.fromMember(created(1n, 3));
    assert.deepEqual(toClient(after, 1).map((r) => [r.watchId, r.created, r.canceled, r.cancelReason]), [
      [0n, true, false, ''],
      [1n, true, false, ''],
      [-1n, true, true, 'mvcc: watcher range is empty'],
    ]);
  });

  void it('a member refusing the create refuses every watcher waiting on it', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a'));
    c.create(2, create('a'));
    const fx = c.fromMember(response({ header: header(3), watchId: -1n, created: true, canceled: true, cancelReason: 'etcdserver: permission denied' }));
    for (const client of [1, 2]) assert.deepEqual(toClient(fx, client).map((r) => [r.watchId, r.canceled, r.cancelReason]), [[-1n, true, 'etcdserver: permission denied']]);
  });

  void it('fragments: each watcher gets its parts, the last one closing them', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a', { fragment: true, filters: [1] }));
    c.fromMember(created(0n, 3));
    const p1 = response({ header: header(4), watchId: 0n, fragment: true, events: [ev('a', 4), ev('a', 4)] });
    const p2 = response({ header: header(4), watchId: 0n, fragment: false, events: [ev('a', 4, Event_EventType.DELETE)] });
    const fx = [...c.fromMember(p1), ...c.fromMember(p2)];
    assert.deepEqual(toClient(fx, 1).map((r) => [r.fragment, r.events.length]), [[true, 2], [false, 0]], 'same-revision parts kept; the last closes');
  });

  void it('progress requests are answered to the stream that asked, in order', () => {
    const c = new WatchCoalescer();
    assert.equal(toMember(c.progress(4)).length, 1);
    c.progress(5);
    const fx = [...c.fromMember(response({ header: header(7), watchId: -1n })), ...c.fromMember(response({ header: header(8), watchId: -1n }))];
    assert.deepEqual(toClient(fx, 4).map((r) => r.header?.revision), [7n]);
    assert.deepEqual(toClient(fx, 5).map((r) => r.header?.revision), [8n]);
  });

  void it('a watch whose watchers all left before the member created it is cancelled on creation', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a'));
    assert.deepEqual(c.clientGone(1), [], 'nothing to cancel yet');
    assert.deepEqual(toMember(c.fromMember(created(0n, 3))), [{ $case: 'cancelRequest', value: { watchId: 0n } }]);
    assert.equal(c.broadcasts, 0);
  });

  void it('a cancel before the member created the watch: created, then canceled, for that watcher only', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a'));
    c.create(2, create('a'));
    assert.deepEqual(toClient(c.cancel(1, 0n), 1).map((r) => [r.created, r.canceled]), [[true, false], [false, true]]);
    const fx = c.fromMember(created(0n, 3));
    assert.equal(toClient(fx, 1).length, 0);
    assert.deepEqual(toClient(fx, 2).map((r) => r.created), [true]);
  });

  void it('a requested watch id is kept; a duplicate is refused as the member refuses it', () => {
    const c = new WatchCoalescer();
    c.create(1, create('a', { watchId: 7n }));
    c.fromMember(created(0n, 3));
    const fx = c.create(1, create('a', { watchId: 7n }));
    assert.deepEqual(toClient(fx, 1).map((r) => [r.watchId, r.canceled, r.cancelReason]), [[-1n, true, 'mvcc: duplicate watch ID provided on the WatchStream']]);
    assert.deepEqual(toClient(c.fromMember(events(0n, 4, ev('a', 4))), 1).map((r) => r.watchId), [7n]);
  });
});
