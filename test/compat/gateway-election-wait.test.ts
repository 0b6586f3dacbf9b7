/**
 * Differential: the Election gateway routes that wait, against a real etcd 3.4. On each server:
 * an `/election/observe` stream is open while candidate A campaigns (answered at once), B
 * campaigns (still unanswered after a bounded wait: A leads), A proclaims a new value and resigns
 * (B is then answered, leading); C campaigns and its client leaves while it waits (etcd's
 * campaign then resigns: C's key is deleted, eventually). The observe stream shows A's value, A's
 * new value, then B. Leader keys and leases are random: masked. No timing is asserted:
 * "unanswered after WAIT_MS" and "within ANSWER_MS" are bounds.
 */
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { diffSubject } from '../support/differential.js';
import { eventually } from '../support/eventually.js';
import { etcdVersion, startMember } from '../support/members.js';
import type { Member } from '../support/server-process.js';

const WAIT_MS = 1000;
const ANSWER_MS = 10_000;

interface Call {
  readonly req: ClientRequest;
  /** The whole answer once it ended. */
  readonly answer: Promise<string>;
  /** What came so far. */
  text(): string;
}

function call(member: Member, path: string, body: string): Call {
  let req!: ClientRequest;
  let text = '';
  const answer = new Promise<string>((resolve, reject) => {
    req = request(`${member.clientUrl}/v3${path}`, { method: 'POST', agent: false, headers: { 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve(text));
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end(body);
  });
  answer.catch(() => undefined);
  return { req, answer, text: () => text };
}

async function within(c: Call, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`unanswered after ${ms} ms`), ms)));
  try {
    return await Promise.race([c.answer, bound]);
  } finally {
    clearTimeout(timer);
  }
}

const post = async (m: Member, path: string, body: string): Promise<string> => within(call(m, path, body), ANSWER_MS);

/** Ids, names and random keys/leases out; revisions stay (both sides make the same writes). */
function masked(text: string, leases: readonly string[]): string {
  let out = text;
  for (const [i, l] of leases.entries()) {
    out = out.split(l).join(`<lease ${i}>`);
    out = out.split(Buffer.from(`dw==/${BigInt(l).toString(16)}`.replace('dw==', 'w')).toString('base64')).join(`<key ${i}>`);
  }
  return out.replace(/"(cluster_id|member_id|raft_term)":"\d+"/g, '"$1":"<n>"');
}

const NAME = '"name":"dw=="'; // "w"

async function transcript(m: Member): Promise<string[]> {
  const out: string[] = [];
  const leases: string[] = [];
  const lease = async (): Promise<string> => {
    const id = (JSON.parse(await post(m, '/lease/grant', '{"TTL":60}')) as { ID: string }).ID;
    leases.push(id);
    return id;
  };
  const [a, b, c] = [await lease(), await lease(), await lease()];
  const observe = call(m, '/election/observe', `{${NAME}}`);
  const campaignA = await post(m, '/election/campaign', `{${NAME},"value":"YQ==","lease":"${a}"}`);
  out.push(`campaign A: ${campaignA}`);
  const leaderA = (JSON.parse(campaignA) as { leader: unknown }).leader;
  const campaignB = call(m, '/election/campaign', `{${NAME},"value":"Yg==","lease":"${b}"}`);
  out.push(`campaign B while A leads: ${await within(campaignB, WAIT_MS)}`);
  out.push(`proclaim A: ${await post(m, '/election/proclaim', JSON.stringify({ leader: leaderA, value: 'YTI=' }))}`);
  out.push(`resign A: ${await post(m, '/election/resign', JSON.stringify({ leader: leaderA }))}`);
  out.push(`campaign B once A resigned: ${await within(campaignB, ANSWER_MS)}`);
  const campaignC = call(m, '/election/campaign', `{${NAME},"value":"Yw==","lease":"${c}"}`);
  out.push(`campaign C while B leads: ${await within(campaignC, WAIT_MS)}`);
  campaignC.req.destroy();
  const range = '{"key":"dy8=","range_end":"dzA=","count_only":true}';
  out.push(`keys once C's client left: ${await eventually('C resigned', async () => {
    const r = await post(m, '/kv/range', range);
    return r.includes('"count":"1"') ? r : undefined;
  })}`);
  out.push(`leader: ${await post(m, '/election/leader', `{${NAME}}`)}`);
  await eventually('three observed leaders', async () => (observe.text().split('\n').length > 3 ? true : undefined));
  observe.req.destroy();
  out.push(...observe.text().trimEnd().split('\n').map((l) => `observe: ${l}`));
  return out.map((l) => masked(l, leases));
}

let reference: Member;
let subject: Member;

before(async () => {
  [reference, subject] = await Promise.all([
    startMember('etcd'),
    startMember(diffSubject(), { env: diffSubject() === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {} }),
  ]);
});

after(async () => {
  await Promise.all([reference?.stop(), subject?.stop()]);
});

void test('campaigns wait for the earlier leader; observe follows the leader; a campaign whose client left resigns', async () => {
  const [want, got] = await Promise.all([transcript(reference), transcript(subject)]);
  if (process.env.DIFF_SHOW === '1') console.log(want.join('\n'));
  assert.equal(want[1], `campaign B while A leads: unanswered after ${WAIT_MS} ms`);
  assert.match(want[4]!, /^campaign B once A resigned: \{"header"/);
  assert.equal(want.filter((l) => l.startsWith('observe: ')).length, 3);
  assert.deepEqual(got, want);
});
