/**
 * Watches through kvstore's gRPC proxy are coalesced, as through etcd 3.4's: kvstore's and etcd's
 * `grpc-proxy start` side by side in front of one kvstore member.
 * - N etcdctl watchers on one prefix through kvstore's proxy each get every event, in order, and
 *   the member serves ONE watcher (and one watch stream) for all of them (its watch gauges);
 *   etcdctl prints the same through etcd's proxy.
 * - etcdctl watching from a compacted revision prints the same through both.
 * - A raw gRPC watch stream sees the same replies through both proxies: created, events with
 *   filters and prev_kv, a cancel, and a watcher from a compacted revision cancelled with
 *   compact_revision.
 * Waits are bounded; nothing is timed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { metricValue, rawWatch } from '../support/front-end-watches.js';
import { etcdctl, eventually, freePorts, spawnEtcdctl, startKvstore, stopAll, type Member } from '../support/processes.js';
import { startProxy, type ProxyProcess } from '../support/proxy-process.js';

const BINARIES = ['etcd', 'kvstore'] as const;
type Binary = (typeof BINARIES)[number];
const WATCHERS = 'kvstore_debugging_mvcc_watcher_total';
const STREAMS = 'kvstore_debugging_mvcc_watch_stream_total';
const N = 4;

/** A raw Watch stream through `endpoint`: requests written, replies collected. */
function rawStream(endpoint: string): { send(r: pb.WatchRequest['requestUnion']): void; replies: pb.WatchResponse[]; close(): void } {
  const client = new pb.WatchClient(endpoint, grpc.credentials.createInsecure());
  const stream = client.watch();
  const replies: pb.WatchResponse[] = [];
  stream.on('data', (r: pb.WatchResponse) => replies.push(r));
  stream.on('error', () => undefined);
  return {
    send: (u) => stream.write({ requestUnion: u }),
    replies,
    close: () => {
      stream.cancel();
      client.close();
    },
  };
}

const createReq = (key: string, o: Partial<pb.WatchCreateRequest> = {}): pb.WatchRequest['requestUnion'] => ({
  $case: 'createRequest',
  value: { ...pb.WatchCreateRequest.fromJSON({}), key: Buffer.from(key), ...o },
});

/** A reply as a client reads it, with the binary's key prefix neutral and revisions relative to `base`. */
function shown(r: pb.WatchResponse, prefix: string, base: bigint): string {
  const rel = (n: bigint | undefined): string => (n === undefined || n === 0n ? '0' : `+${n - base}`);
  const evs = r.events.map((e) => `${e.type === 0 ? 'PUT' : 'DELETE'} ${e.kv!.key.toString().replace(prefix, '@')}=${e.kv!.value.toString()}@${rel(e.kv!.modRevision)}${e.prevKv ? ` prev=${e.prevKv.value.toString()}` : ''}`);
  return `id=${r.watchId}${r.created ? ' created' : ''}${r.canceled ? ' canceled' : ''}${r.compactRevision > 0n ? ' compacted' : ''}${r.cancelReason ? ` (${r.cancelReason})` : ''} [${evs.join(', ')}]`;
}

const revisionOf = async (m: Member, key: string): Promise<bigint> => {
  const out = (await etcdctl(m.endpoint, ['put', key, 'x', '-w', 'json'])).stdout;
  return BigInt(/"revision":(\d+)/.exec(out)![1]!);
};

void describe('grpc-proxy watch coalescing: kvstore\'s and etcd\'s in front of one member', () => {
  let member: Member;
  const proxies = new Map<Binary, string>();
  const logs = new Map<Binary, ProxyProcess>();

  before(async () => {
    member = await startKvstore();
  });
  /** The proxy of `b`, started on first use: etcd's keeps watches of its own on the member (its leader check), so it starts after kvstore's gauges were read. */
  const proxyOf = async (b: Binary): Promise<string> => {
    const known = proxies.get(b);
    if (known !== undefined) return known;
    const [port] = await freePorts('127.0.0.1', 1);
    const at = `127.0.0.1:${port!}`;
    logs.set(b, await startProxy(b, ['grpc-proxy', 'start', `--listen-addr=${at}`, `--endpoints=${member.endpoint}`], 'started gRPC proxy'));
    proxies.set(b, at);
    return at;
  };
  after(stopAll);

  void it(`${N} etcdctl watchers on one prefix: every event to each, in order; the member serves one watcher for them`, async () => {
    const outputs = new Map<Binary, string[]>();
    // kvstore's first: the member has served no watch yet.
    for (const b of ['kvstore', 'etcd'] as const) {
      const prefix = `co-${b}/`;
      const endpoint = await proxyOf(b);
      // kvstore's proxy is the member's only client so far: its gauges start from nothing.
      const [watchersBefore, streamsBefore] = [0, 0];
      const ws = Array.from({ length: N }, () => spawnEtcdctl(endpoint, ['watch', prefix, '--prefix']));
      try {
        // Every watcher is in place once each has seen a put made after it started.
        await eventually(`the ${N} watchers through ${b}'s proxy see a put`, async () => {
          await etcdctl(member.endpoint, ['put', `${prefix}ready`, 'go']);
          return ws.every((w) => w.stdout().includes(`PUT\n${prefix}ready\ngo\n`)) ? true : undefined;
        });
        if (b === 'kvstore') {
          // The gauges are refreshed now and then: a marker watch opened on the member after the
          // proxy's shows when a refresh has seen everything (delta = the proxy's + the marker's).
          const marker = await rawWatch(member, `${prefix}marker`);
          try {
            const delta = await eventually('the member\'s watch gauges count the marker', async () => {
              const d = [(await metricValue(member, WATCHERS)) - watchersBefore, (await metricValue(member, STREAMS)) - streamsBefore];
              return d[0]! >= 2 && d[1]! >= 2 ? d : undefined;
            });
            assert.deepEqual(delta, [2, 2], `one watcher and one watch stream on the member for the proxy's N watchers (plus the marker's); the proxy logged:\n${logs.get(b)!.output()}`);
            const creates = logs.get(b)!.output().split('\n').filter((l) => l.includes('"msg":"created an upstream watch"') && l.includes(`"key":"${prefix}"`));
            assert.equal(creates.length, 1, 'the proxy asked the member for one watch on the prefix');
          } finally {
            marker.stream.cancel();
            marker.client.close();
          }
        }
        for (let i = 0; i < 6; i++) await etcdctl(member.endpoint, ['put', `${prefix}k${i % 2}`, `v${i}`]);
        await etcdctl(member.endpoint, ['del', `${prefix}k`, '--prefix']);
        await etcdctl(member.endpoint, ['put', `${prefix}end`, 'done']);
        await eventually(`the watchers through ${b}'s proxy see the last put`, () => Promise.resolve(ws.every((w) => w.stdout().includes(`${prefix}end\ndone\n`)) ? true : undefined));
        const seen = ws.map((w) => w.stdout().slice(w.stdout().lastIndexOf(`PUT\n${prefix}ready\ngo\n`)).replaceAll(prefix, '@'));
        const expected = `PUT\n@ready\ngo\n${[0, 1, 2, 3, 4, 5].map((i) => `PUT\n@k${i % 2}\nv${i}\n`).join('')}DELETE\n@k0\n\nDELETE\n@k1\n\nPUT\n@end\ndone\n`;
        for (const s of seen) assert.equal(s, expected, 'every event, in order, once');
        outputs.set(b, seen);
      } finally {
        for (const w of ws) await w.stop('SIGINT');
      }
    }
    assert.deepEqual(outputs.get('kvstore'), outputs.get('etcd'));
  });

  void it('a raw watch stream gets the same replies through both: created, filtered events, prev_kv, cancel, compaction', async () => {
    const transcripts = new Map<Binary, string[]>();
    for (const b of BINARIES) {
      const prefix = `raw-${b}/`;
      const end = Buffer.from(`raw-${b}0`);
      const old = await revisionOf(member, `${prefix}old`);
      const s = rawStream(await proxyOf(b));
      const t = rawStream(await proxyOf(b));
      try {
        s.send(createReq(prefix, { rangeEnd: end }));
        s.send(createReq(prefix, { rangeEnd: end, prevKv: true, filters: [pb.WatchCreateRequest_FilterType.NOPUT] }));
        t.send(createReq(prefix, { rangeEnd: end }));
        await eventually(`created replies through ${b}'s proxy`, () => Promise.resolve(s.replies.length >= 2 && t.replies.length >= 1 ? true : undefined));
        await etcdctl(member.endpoint, ['put', `${prefix}a`, '1']);
        await etcdctl(member.endpoint, ['put', `${prefix}a`, '2']);
        await etcdctl(member.endpoint, ['del', `${prefix}a`]);
        await eventually(`events through ${b}'s proxy`, () => Promise.resolve(s.replies.length >= 6 && t.replies.length >= 4 ? true : undefined));
        s.send({ $case: 'cancelRequest', value: { watchId: 0n } });
        await eventually(`the cancel through ${b}'s proxy`, () => Promise.resolve(s.replies.length >= 7 ? true : undefined));
        const now = await revisionOf(member, `${prefix}b`);
        await etcdctl(member.endpoint, ['compact', String(now)]);
        t.send(createReq(prefix, { rangeEnd: end, startRevision: old }));
        await eventually(`the compacted watcher through ${b}'s proxy`, () => Promise.resolve(t.replies.some((r) => r.compactRevision > 0n) ? true : undefined));
        // Per watcher, in order (the order between two watchers of one stream is not defined: etcd's proxy fans out from a map).
        const perWatcher = (rs: pb.WatchResponse[]): pb.WatchResponse[] => [...rs].sort((x, y) => Number(x.watchId - y.watchId));
        transcripts.set(b, [...perWatcher(s.replies).map((r) => `s ${shown(r, prefix, old)}`), ...perWatcher(t.replies).map((r) => `t ${shown(r, prefix, old)}`)]);
      } finally {
        s.close();
        t.close();
      }
    }
    assert.deepEqual(transcripts.get('kvstore'), transcripts.get('etcd'));
    assert.deepEqual(transcripts.get('kvstore')!.filter((l) => l.startsWith('s id=1')), ['s id=1 created []', 's id=1 [DELETE @a=@+3 prev=2]'], 'NOPUT and prev_kv for that watcher only');
    assert.equal(transcripts.get('kvstore')!.at(-1), 't id=1 canceled compacted []');
  });

  void it('etcdctl watching from a compacted revision is told so through both, the same way', async () => {
    const outs = new Map<Binary, string>();
    for (const b of BINARIES) {
      const prefix = `cw-${b}/`;
      const old = await revisionOf(member, `${prefix}a`);
      const now = await revisionOf(member, `${prefix}b`);
      await etcdctl(member.endpoint, ['compact', String(now)]);
      const r = await etcdctl(await proxyOf(b), ['watch', prefix, '--prefix', `--rev=${old}`]);
      outs.set(b, `exit ${r.code}\n${r.stdout}${r.stderr}`.replaceAll(prefix, '@').replace(/compacted revision \d+/g, 'compacted revision N').replace(/\d{4}-\d\d-\d\d[ T][\d:.]+Z? ?/g, ''));
    }
    assert.equal(outs.get('kvstore'), outs.get('etcd'));
    assert.match(outs.get('kvstore')!, /compacted/);
  });
});
