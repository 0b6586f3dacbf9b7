/**
 * Differential: `--max-concurrent-streams` on the JSON gateway, against a real etcd 3.4. etcd's
 * gateway is a gRPC client of its own member on one connection, so gateway calls beyond the limit
 * wait for a stream to end (etcd's e2e TestV3Curl_MaxStreams_*). With a limit of 2 and two open
 * `/v3/watch` calls: a range is still unanswered after a bounded wait; a second range whose client
 * leaves while waiting takes no slot; once a watch is closed the first range is answered, and a
 * later range as well. Each observation is a line of a transcript both servers must produce alike.
 * No timing is asserted: "unanswered after WAIT_MS" and "answered within ANSWER_MS" are bounds.
 */
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { diffSubject } from '../support/differential.js';
import { etcdVersion, startMember } from '../support/members.js';
import type { Member } from '../support/server-process.js';

const WAIT_MS = 1500;
const ANSWER_MS = 10_000;

interface Call {
  readonly req: ClientRequest;
  /** Resolves with the status and body once answered (a body of a stream: what came so far when `firstLine`). */
  readonly answer: Promise<{ status: number; body: string }>;
}

function call(member: Member, path: string, body: string, firstLine = false): Call {
  let req!: ClientRequest;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req = request(`${member.clientUrl}/v3${path}`, { method: 'POST', agent: false, headers: { 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
        if (firstLine && text.includes('\n')) resolve({ status: res.statusCode ?? 0, body: text.slice(0, text.indexOf('\n')) });
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end(body);
  });
  answer.catch(() => undefined);
  return { req, answer };
}

async function within(c: Call, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`unanswered after ${ms} ms`), ms)));
  const answered = c.answer.then((a) => `answered ${a.status}${a.body.includes('"revision":"') ? ' with a revision' : `: ${a.body}`}`);
  try {
    return await Promise.race([answered, bound]);
  } finally {
    clearTimeout(timer);
  }
}

const WATCH = '{"create_request":{"key":"Zm9v","start_revision":1}}';
const RANGE = '{"key":"Zm9v"}';

async function transcript(member: Member): Promise<string[]> {
  const out: string[] = [];
  const watches = [call(member, '/watch', WATCH, true), call(member, '/watch', WATCH, true)];
  for (const [i, w] of watches.entries()) out.push(`watch ${i}: ${await within(w, ANSWER_MS)}`);
  const first = call(member, '/kv/range', RANGE);
  out.push(`range 1 at the limit: ${await within(first, WAIT_MS)}`);
  const leaving = call(member, '/kv/range', RANGE);
  out.push(`range 2 at the limit: ${await within(leaving, WAIT_MS)}`);
  leaving.req.destroy();
  watches[0]!.req.destroy();
  out.push(`range 1 after a watch closed: ${await within(first, ANSWER_MS)}`);
  out.push(`range 3 (range 2 left while waiting): ${await within(call(member, '/kv/range', RANGE), ANSWER_MS)}`);
  watches[1]!.req.destroy();
  return out;
}

const ARGS = ['--max-concurrent-streams=2'];
let reference: Member;
let subject: Member;

before(async () => {
  [reference, subject] = await Promise.all([startMember('etcd', { args: ARGS }), startMember(diffSubject(), { args: ARGS, env: diffSubject() === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {} })]);
});

after(async () => {
  await Promise.all([reference?.stop(), subject?.stop()]);
});

void test('gateway calls beyond --max-concurrent-streams wait for a stream to end, as in etcd 3.4', async () => {
  const [want, got] = await Promise.all([transcript(reference), transcript(subject)]);
  assert.deepEqual(want, [
    'watch 0: answered 200 with a revision',
    'watch 1: answered 200 with a revision',
    `range 1 at the limit: unanswered after ${WAIT_MS} ms`,
    `range 2 at the limit: unanswered after ${WAIT_MS} ms`,
    'range 1 after a watch closed: answered 200 with a revision',
    'range 3 (range 2 left while waiting): answered 200 with a revision',
  ]);
  assert.deepEqual(got, want);
});
