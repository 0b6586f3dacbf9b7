/**
 * Clients that leave a Lock, a Campaign or an Observe while it waits, on a real kvstore member in
 * each client-port mode (default, KVSTORE_CLIENT_THREADS=1): the member must never crash, and
 * every waiting Lock or Campaign that was cancelled must leave no key behind (etcd's recipes
 * delete the waiter's key when its context ends).
 *
 * A holder keeps lock `L` and leads election `E` throughout, so every other Lock and Campaign
 * waits. Calls (lease 0: the member grants each its own lease) are ended per TIMINGS — cancelled
 * in the same tick, after setImmediate, after a few ms of waiting, by a 1 ms or a 50 ms deadline. Afterwards: the member still runs and serves
 * (member-still-serves.ts), its log shows no uncaught exception, and the keys under `L/` and
 * `E/` are, eventually, the holder's alone. RECIPE_RACE_SCALE (default 1) multiplies the counts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Metadata } from '@grpc/grpc-js';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { eventually } from '../support/eventually.js';
import { problemsAfter } from '../support/member-still-serves.js';
import { startKvstore } from '../support/members.js';
import { openClients, run, type Clients } from '../support/recipe-calls.js';
import type { Member } from '../support/server-process.js';

const SCALE = Number(process.env.RECIPE_RACE_SCALE ?? '1');
const ROUNDS = Math.round(20 * SCALE);
const TIMINGS = ['same-tick', 'immediate', 'waiting', 'deadline-1ms', 'deadline-50ms'] as const;
type Timing = (typeof TIMINGS)[number];
type Kind = 'Lock' | 'Campaign' | 'Observe';

const MODES = [
  { title: 'default', env: {} },
  { title: 'KVSTORE_CLIENT_THREADS=1', env: { KVSTORE_CLIENT_THREADS: '1' } },
] as const;

const b = (s: string): Buffer => Buffer.from(s);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function deadlineOf(t: Timing): Date {
  if (t === 'deadline-1ms') return new Date(Date.now() + 1);
  if (t === 'deadline-50ms') return new Date(Date.now() + 50);
  return new Date(Date.now() + 30_000);
}

/** Starts one call of `kind` on `c`, ends it per `t`; resolves once it settled. */
function endedCall(c: Clients, kind: Kind, t: Timing, i: number): Promise<void> {
  return new Promise((resolve) => {
    const options = { deadline: deadlineOf(t) };
    let call: { cancel(): void };
    if (kind === 'Observe') {
      const s = c.election.observe({ name: b('E') }, new Metadata(), options);
      s.on('error', () => undefined);
      s.on('data', () => undefined);
      s.on('status', () => resolve());
      call = s;
    } else if (kind === 'Lock') {
      call = c.lock.lock({ name: b('L'), lease: 0n }, new Metadata(), options, () => resolve());
    } else {
      call = c.election.campaign({ name: b('E'), lease: 0n, value: b(`v${i}`) }, new Metadata(), options, () => resolve());
    }
    if (t === 'same-tick') call.cancel();
    else if (t === 'immediate') setImmediate(() => call.cancel());
    else if (t === 'waiting') setTimeout(() => call.cancel(), 5 + (i % 5) * 10);
  });
}

async function keysOf(c: Clients, prefix: string): Promise<string[]> {
  const end = b(prefix);
  end[end.length - 1]! += 1;
  const r = await run(c.kv.range.bind(c.kv), { ...pb.RangeRequest.fromJSON({}), key: b(prefix), rangeEnd: end, keysOnly: true });
  return (r.value?.kvs ?? []).map((kv) => kv.key.toString());
}

for (const mode of MODES) {
  void describe(`waiting Lock, Campaign and Observe cancelled: ${mode.title}`, () => {
    let member: Member;
    let holder: Clients;
    const held: string[] = [];
    before(async () => {
      member = await startKvstore({ env: mode.env });
      holder = openClients(member.endpoint);
      const l = await run(holder.lock.lock.bind(holder.lock), { name: b('L'), lease: 0n });
      const e = await run(holder.election.campaign.bind(holder.election), { name: b('E'), lease: 0n, value: b('holder') });
      held.push(l.value?.key.toString() ?? l.text, e.value?.leader?.key.toString() ?? e.text);
    });
    after(async () => {
      holder?.close();
      await member?.stop();
    });

    void it(`${ROUNDS} rounds of every kind × every timing; the member serves, no waiter key is left`, { timeout: 120_000 }, async () => {
      const logFrom = member.logs().length;
      for (let round = 0; round < ROUNDS; round++) {
        const calls: Promise<void>[] = [];
        const closers: Clients[] = [];
        for (const kind of ['Lock', 'Campaign', 'Observe'] as const) {
          for (const [j, t] of TIMINGS.entries()) {
            const c = openClients(member.endpoint);
            closers.push(c);
            const ended = endedCall(c, kind, t, round * TIMINGS.length + j);
            calls.push(ended);
          }
        }
        await Promise.all(calls);
        for (const c of closers) c.close();
        if (round % 5 === 0) await sleep(10);
      }
      const problems = await problemsAfter(member, { logFrom, tag: 'recipes' });
      assert.deepEqual(problems, []);
      const [lockKey, leaderKey] = held;
      let left: string[] = [];
      await eventually('every cancelled waiter key is gone', async () => {
        left = [...(await keysOf(holder, 'L/')), ...(await keysOf(holder, 'E/'))];
        return left.join() === `${lockKey},${leaderKey}` ? true : undefined;
      }, { describe: () => `holder keys ${held.join(', ')}; keys ${left.join(', ')}` });
    });
  });
}
