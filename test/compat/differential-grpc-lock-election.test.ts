/**
 * Differential: the gRPC Lock and Election services (v3lockpb, v3electionpb) against a real
 * etcd 3.4, the same story on each server, compared as masked transcripts (lease ids masked,
 * revisions kept: both servers make the same writes):
 * - Lock: a second Lock on the same name waits until the first is unlocked; a waiting Lock
 *   whose client cancels leaves no key; a Lock without lease (the member grants one); a lease
 *   that does not exist; Unlock of a key no one holds;
 * - Election: Observe sees the first leader, its proclaim and the next leader; a second
 *   Campaign waits until the leader resigns; a waiting Campaign whose client cancels leaves no
 *   key; Proclaim and Resign without `leader`, with a stale leader key; Leader of an empty
 *   election;
 * - auth enabled: a user with readwrite on `a` only locks (also after waiting: the recipe's
 *   watch is the user's) and campaigns there and is refused elsewhere; no token; an invalid token.
 * After the cancellations the member must still serve (member-still-serves.ts). No timing is
 * asserted: "pending after WAIT_MS" is a bound. An Observe that ends with OK is printed without
 * its grpc-message (grpc-go sends none, kvstore's streams send `OK` as grpc-js does).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClientReadableStream } from '@grpc/grpc-js';
import * as epb from '../../proto/gen/etcd/election.js';
import * as lpb from '../../proto/gen/etcd/lock.js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { diffSubject } from '../support/differential.js';
import { eventually } from '../support/eventually.js';
import { problemsAfter } from '../support/member-still-serves.js';
import { etcdVersion, startMember } from '../support/members.js';
import { metadataOf, openClients, Recorder, render, run, start, type Clients } from '../support/recipe-calls.js';
import type { Member } from '../support/server-process.js';

const WAIT_MS = 1000;
const b = (s: string): Buffer => Buffer.from(s);

async function grant(c: Clients, rec: Recorder, token?: string): Promise<bigint> {
  const r = await run(c.lease.leaseGrant.bind(c.lease), pb.LeaseGrantRequest.fromJSON({ TTL: '60' }), token);
  const id = r.value?.ID ?? 0n;
  rec.lease(id);
  return id;
}

/** The keys of `prefix`, as text. */
async function keys(c: Clients, prefix: string): Promise<string> {
  const end = b(prefix);
  end[end.length - 1]! += 1;
  const r = await run(c.kv.range.bind(c.kv), { ...pb.RangeRequest.fromJSON({}), key: b(prefix), rangeEnd: end, keysOnly: true });
  return r.value === undefined ? r.text : r.value.kvs.map((kv) => kv.key.toString()).join(',') || '(none)';
}

const lockReq = (name: string, lease: bigint): lpb.LockRequest => ({ name: b(name), lease });

async function lockStory(c: Clients, rec: Recorder): Promise<void> {
  const lock = c.lock.lock.bind(c.lock);
  const unlock = c.lock.unlock.bind(c.lock);
  const [a, bb, cc] = [await grant(c, rec), await grant(c, rec), await grant(c, rec)];
  const first = await run(lock, lockReq('L', a));
  rec.add('lock A', first.text);
  const second = start(lock, lockReq('L', bb));
  rec.add('lock B while A holds', await second.within(WAIT_MS));
  rec.add('unlock A', (await run(unlock, { key: first.value?.key ?? b('') })).text);
  const got = await second.outcome;
  rec.add('lock B after unlock A', got.text);
  const third = start(lock, lockReq('L', cc));
  rec.add('lock C while B holds', await third.within(WAIT_MS));
  third.cancel();
  rec.add('lock C cancelled', (await third.outcome).text.replace(/^error 1 .*/, 'error 1 (cancelled)'));
  await eventually('the cancelled lock key is gone', async () => (await keys(c, 'L/')) === `L/${bb.toString(16)}` || undefined);
  rec.add('keys after cancel', (await keys(c, 'L/')).split(bb.toString(16)).join('<lease 1>'));
  rec.add('unlock B', (await run(unlock, { key: got.value?.key ?? b('') })).text);
  rec.add('keys', await keys(c, 'L/'));
  const own = await run(lock, lockReq('M', 0n));
  const ownLease = BigInt(`0x${own.value?.key.toString().slice(2) ?? '0'}`);
  rec.lease(ownLease);
  rec.add('lock without lease', own.text);
  rec.add('lock again, same lease', (await run(lock, lockReq('M', ownLease))).text);
  rec.add('lock, unknown lease', (await run(lock, lockReq('N', 12345n))).text);
  rec.add('unlock nothing', (await run(unlock, { key: b('nothing') })).text);
  rec.add('lock, empty name', (await run(lock, lockReq('', a))).text);
}

/** Observe `name`: the responses it got so far, and its end. */
function observe(c: Clients, name: string, token?: string): { got: string[]; end: Promise<string>; cancel(): void } {
  const got: string[] = [];
  const s: ClientReadableStream<epb.LeaderResponse> = c.election.observe({ name: b(name) }, metadataOf(token));
  s.on('data', (r: epb.LeaderResponse) => got.push(render({ header: r.header, key: r.kv?.key, value: r.kv?.value })));
  const end = new Promise<string>((resolve) => s.on('status', (st: { code: number; details: string }) => resolve(st.code === 0 ? 'status 0' : `status ${st.code} ${st.details}`)));
  s.on('error', () => undefined);
  return { got, end, cancel: () => s.cancel() };
}

async function electionStory(c: Clients, rec: Recorder): Promise<void> {
  const e = c.election;
  const [campaign, proclaim, leader, resign] = [e.campaign.bind(e), e.proclaim.bind(e), e.leader.bind(e), e.resign.bind(e)];
  const [a, bb, cc] = [await grant(c, rec), await grant(c, rec), await grant(c, rec)];
  rec.add('leader of an empty election', (await run(leader, { name: b('E') })).text);
  const obs = observe(c, 'E');
  const ca = await run(campaign, { name: b('E'), lease: a, value: b('a') });
  rec.add('campaign A', ca.text);
  const cb = start(campaign, { name: b('E'), lease: bb, value: b('b') });
  rec.add('campaign B while A leads', await cb.within(WAIT_MS));
  const la = ca.value?.leader;
  rec.add('proclaim A', (await run(proclaim, { leader: la, value: b('a2') })).text);
  rec.add('leader', (await run(leader, { name: b('E') })).text);
  rec.add('proclaim, stale rev', (await run(proclaim, { leader: la && { ...la, rev: la.rev + 100n }, value: b('x') })).text);
  rec.add('proclaim, no leader field', (await run(proclaim, { leader: undefined, value: b('x') })).text);
  rec.add('resign, no leader field', (await run(resign, { leader: undefined })).text);
  rec.add('resign A', (await run(resign, { leader: la })).text);
  const bWon = await cb.outcome;
  rec.add('campaign B after A resigned', bWon.text);
  rec.add('resign A again', (await run(resign, { leader: la })).text);
  const cc1 = start(campaign, { name: b('E'), lease: cc, value: b('c') });
  rec.add('campaign C while B leads', await cc1.within(WAIT_MS));
  cc1.cancel();
  await cc1.outcome;
  await eventually('the cancelled candidate key is gone', async () => (await keys(c, 'E/')) === `E/${bb.toString(16)}` || undefined);
  rec.add('keys after cancel', (await keys(c, 'E/')).split(bb.toString(16)).join('<lease 1>'));
  await eventually('observe saw three leaders', () => Promise.resolve(obs.got.length >= 3 || undefined));
  obs.cancel();
  await obs.end;
  for (const [i, line] of obs.got.entries()) rec.add(`observe ${i}`, line);
  rec.add('campaign, unknown lease', (await run(campaign, { name: b('F'), lease: 12345n, value: b('v') })).text);
  const leases = async (): Promise<number> => (await run(c.lease.leaseLeases.bind(c.lease), {})).value?.leases.length ?? -1;
  const g = (await run(campaign, { name: b('G'), lease: a, value: b('g') })).value?.leader;
  const before = await leases();
  rec.add('proclaim, leader key without lease', (await run(proclaim, { leader: g && { ...g, lease: 0n }, value: b('g2') })).text);
  const kv = (await run(c.kv.range.bind(c.kv), { ...pb.RangeRequest.fromJSON({}), key: g?.key ?? b('') })).value?.kvs[0];
  rec.add('its key after', `value ${kv?.value.toString()}, lease ${kv?.lease === 0n ? 'none' : kv?.lease === a ? 'the campaign\'s' : 'another'}`);
  rec.add('resign, leader key without lease', (await run(resign, { leader: g && { ...g, lease: 0n } })).text);
  rec.add('leases granted by proclaim and resign', String((await leases()) - before));
}

async function authStory(c: Clients, rec: Recorder): Promise<void> {
  const a = c.auth;
  const call = async <Req, Res>(label: string, fn: Parameters<typeof run<Req, Res>>[0], req: Req, token?: string): Promise<void> =>
    rec.add(label, (await run(fn, req, token)).text);
  await call('user add root', a.userAdd.bind(a), pb.AuthUserAddRequest.fromJSON({ name: 'root', password: 'rootpw' }));
  await call('grant root', a.userGrantRole.bind(a), pb.AuthUserGrantRoleRequest.fromJSON({ user: 'root', role: 'root' }));
  await call('user add u', a.userAdd.bind(a), pb.AuthUserAddRequest.fromJSON({ name: 'u', password: 'upw' }));
  await call('role add r', a.roleAdd.bind(a), pb.AuthRoleAddRequest.fromJSON({ name: 'r' }));
  const perm = { permType: 'READWRITE', key: b('a').toString('base64'), range_end: b('b').toString('base64') };
  await call('grant r', a.roleGrantPermission.bind(a), pb.AuthRoleGrantPermissionRequest.fromJSON({ name: 'r', perm }));
  await call('grant u', a.userGrantRole.bind(a), pb.AuthUserGrantRoleRequest.fromJSON({ user: 'u', role: 'r' }));
  await call('auth enable', a.authEnable.bind(a), pb.AuthEnableRequest.fromJSON({}));
  const token = (await run(a.authenticate.bind(a), pb.AuthenticateRequest.fromJSON({ name: 'u', password: 'upw' }))).value?.token;
  const rootToken = (await run(a.authenticate.bind(a), pb.AuthenticateRequest.fromJSON({ name: 'root', password: 'rootpw' }))).value?.token;
  const lease = await grant(c, rec, rootToken);
  const lock = c.lock.lock.bind(c.lock);
  const e = c.election;
  const l = await run(lock, lockReq('a', lease), token);
  rec.add('u: lock a', l.text);
  rec.add('u: unlock a', (await run(c.lock.unlock.bind(c.lock), { key: l.value?.key ?? b('') }, token)).text);
  const lease2 = await grant(c, rec, rootToken);
  const held = await run(lock, lockReq('a', lease), token);
  const waiting = start(lock, lockReq('a', lease2), token);
  rec.add('u: lock a again while held (its wait watches as u)', await waiting.within(WAIT_MS));
  rec.add('u: unlock the holder', (await run(c.lock.unlock.bind(c.lock), { key: held.value?.key ?? b('') }, token)).text);
  const next = await waiting.outcome;
  rec.add('u: the waiting lock', next.text);
  rec.add('u: unlock it', (await run(c.lock.unlock.bind(c.lock), { key: next.value?.key ?? b('') }, token)).text);
  rec.add('u: lock x', (await run(lock, lockReq('x', lease), token)).text);
  rec.add('u: unlock x', (await run(c.lock.unlock.bind(c.lock), { key: b('x/1') }, token)).text);
  rec.add('u: lock x, no lease', (await run(lock, lockReq('x', 0n), token)).text);
  rec.add('no token: lock a', (await run(lock, lockReq('a', lease))).text);
  rec.add('bad token: lock a', (await run(lock, lockReq('a', lease), 'garbage')).text);
  const ca = await run(e.campaign.bind(e), { name: b('a'), lease, value: b('v') }, token);
  rec.add('u: campaign a', ca.text);
  rec.add('u: campaign x', (await run(e.campaign.bind(e), { name: b('x'), lease, value: b('v') }, token)).text);
  rec.add('u: leader a', (await run(e.leader.bind(e), { name: b('a') }, token)).text);
  rec.add('u: leader x', (await run(e.leader.bind(e), { name: b('x') }, token)).text);
  rec.add('no token: leader a', (await run(e.leader.bind(e), { name: b('a') })).text);
  rec.add('u: proclaim a', (await run(e.proclaim.bind(e), { leader: ca.value?.leader, value: b('w') }, token)).text);
  const denied = observe(c, 'x', token);
  rec.add('u: observe x', `${await denied.end} after ${denied.got.length} responses`);
  rec.add('u: resign a', (await run(e.resign.bind(e), { leader: ca.value?.leader }, token)).text);
}

/** Name, story, and whether to check afterwards that the member still serves (an anonymous Put: not once auth is on). */
const STORIES: ReadonlyArray<[string, (c: Clients, rec: Recorder) => Promise<void>, boolean]> = [
  ['lock: waits, hand-over, cancellation, errors', lockStory, true],
  ['election: observe, waiting campaign, resign, cancellation, errors', electionStory, true],
  ['auth enabled: the caller\'s permissions apply to each call of the recipes', authStory, false],
];

async function transcript(m: Member, story: (c: Clients, rec: Recorder) => Promise<void>): Promise<string> {
  const c = openClients(m.endpoint);
  const rec = new Recorder();
  try {
    await story(c, rec);
  } catch (e) {
    rec.add('story failed', String(e));
  } finally {
    c.close();
  }
  return rec.lines.join('\n');
}

const subject = diffSubject();
void describe(`gRPC Lock and Election: ${subject} vs etcd ${etcdVersion()}`, () => {
  for (const [name, story, checkServes] of STORIES) {
    void it(name, async () => {
      const version = etcdVersion();
      const env: Record<string, string> = subject === 'kvstore' ? { KVSTORE_SERVER_VERSION: version } : {};
      const [ref, sub] = await Promise.all([startMember('etcd', { name: 'diff' }), startMember(subject, { name: 'diff', env })]);
      try {
        const [expected, actual] = await Promise.all([transcript(ref, story), transcript(sub, story)]);
        if (process.env.DIFF_SHOW === '1') process.stderr.write(`# ${name} (reference)\n${expected}\n`);
        assert.equal(actual, expected, `log tail:\n${sub.logs().split('\n').slice(-30).join('\n')}`);
        if (checkServes) assert.deepEqual(await problemsAfter(sub, { logFrom: 0, tag: name.split(':')[0]! }), []);
      } finally {
        await Promise.all([ref.kill9(), sub.kill9()]);
      }
    });
  }
});
