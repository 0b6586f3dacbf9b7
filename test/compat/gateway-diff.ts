/**
 * Differential runs of the JSON gateway: the same raw HTTP requests against a real etcd 3.4 (the
 * reference) and the subject (kvstore, or a second etcd with DIFF_SUBJECT=etcd), compared as masked
 * transcripts (status, content type, body per step). Builds on test/support: `startMember`,
 * `etcdVersion`, `diffSubject` (differential.ts) and the loopback addresses; DIFF_SHOW=1 prints the
 * reference transcripts.
 *
 * One reference and one subject member per test file, started once; the cases of a file run in
 * order on them, so revisions stay comparable (both sides see the same writes) and are NOT masked.
 * Masked: cluster/member ids of headers, raft terms and indexes, member names and URLs, hashes,
 * sizes (see GATEWAY_MASKS), and every captured value (a random lease or member id) wherever it
 * appears, as `<var>`; ids a request chose itself stay visible, so a lost digit shows.
 *
 * Steps (bodies are raw text, sent byte for byte; `{var}` is replaced by a captured value, so
 * `{"ID":{lease}}` sends a JSON number and `{"ID":"{lease}"}` a string):
 * - `{ post, body?, capture? }`: one request, the whole answer recorded; `capture` maps a variable
 *   to a field of the JSON answer (`{ lease: 'ID' }`, `{ learner: 'member.ID' }`);
 * - `{ open, post, body }`: a request whose body stays open (watch); `{ send, body }` writes more
 *   of it; `{ await, lines, sorted? }` records the stream's lines once it has that many (bounded
 *   wait; a shortfall is recorded, not thrown); `{ close }` ends it and records what remained.
 *
 * Services covered by differential-gateway-*.test.ts: kv (with txn), lease, watch, cluster,
 * maintenance, election, lock. Auth: the gateway does not serve `/v3/auth/*` yet (those routes answer
 * Unimplemented); add differential-gateway-auth.test.ts with this harness when it does.
 */
import assert from 'node:assert/strict';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { diffSubject } from '../support/differential.js';
import { eventually } from '../support/eventually.js';
import { etcdVersion, startMember } from '../support/members.js';
import type { Member, ServerKind } from '../support/server-process.js';

export interface PostStep {
  /** Path under `/v3`, e.g. `/kv/put` (or a full path starting with `//`, taken as is minus one slash). */
  readonly post: string;
  readonly body?: string;
  readonly method?: string;
  readonly capture?: Readonly<Record<string, string>>;
}
export interface OpenStep {
  readonly open: string;
  readonly post: string;
  readonly body: string;
}
export interface SendStep {
  readonly send: string;
  readonly body: string;
}
export interface AwaitStep {
  readonly await: string;
  readonly lines: number;
  /** Record the lines sorted (answers whose order the server does not define, e.g. one event to several watchers). */
  readonly sorted?: boolean;
}
export interface CloseStep {
  readonly close: string;
}
export type GwStep = PostStep | OpenStep | SendStep | AwaitStep | CloseStep;

export interface GwCase {
  readonly name: string;
  readonly steps: readonly GwStep[];
  /** Extra replacements for this case's answers. */
  readonly mask?: ReadonlyArray<readonly [RegExp, string]>;
  /** Applied to every masked answer, for output whose order the server does not define. */
  readonly normalize?: (text: string) => string;
}

/** Masks for what legitimately differs between two members (ids, terms, indexes, names, URLs, sizes). */
export const GATEWAY_MASKS: ReadonlyArray<readonly [RegExp, string]> = [
  [/"(cluster_id|member_id|raft_term|memberID|leader|raftIndex|raftTerm|raftAppliedIndex|dbSize|dbSizeInUse|remaining_bytes)":"\d+"/g, '"$1":"<n>"'],
  [/"hash":\d+/g, '"hash":<n>'],
  [/"name":"[^"]*"/g, '"name":"<name>"'],
  [/"(peerURLs|clientURLs)":\[[^\]]*\]/g, '"$1":["<urls>"]'],
  [/"blob":"[^"]*"/g, '"blob":"<blob>"'],
  [/http:\/\/127\.\d+\.\d+\.\d+:\d+/g, '<url>'],
];

const AWAIT_MS = 10_000;
const REQUEST_MS = 15_000;

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

function substitute(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => vars.get(name) ?? all);
}

/** A body as the transcript shows it (long ones by their length). */
function shown(body: string | undefined): string {
  const b = body ?? '';
  return b.length > 300 ? `<${b.length} chars>` : b;
}

function url(member: Member, path: string): string {
  return path.startsWith('//') ? `${member.clientUrl}${path.slice(1)}` : `${member.clientUrl}/v3${path}`;
}

function post(target: string, body: string, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // An explicit length: without it a GET's body would not be framed and would leak into the next request.
    const headers = { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(target, { method, headers, timeout: REQUEST_MS, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${target} within ${REQUEST_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A request whose body stays open; the answer's lines are collected as they arrive. */
class OpenCall {
  private text = '';
  private status = 0;
  private ended = false;
  private readonly req: ClientRequest;
  private waiters: Array<() => void> = [];
  private continued = false;
  private queued = '';

  constructor(target: string, body: string) {
    // `Expect: 100-continue`, as curl sends for a streamed upload: without it the reference's HTTP
    // server (Go net/http) holds the response back until the request body has ended.
    const headers = { 'transfer-encoding': 'chunked', expect: '100-continue' };
    this.req = request(target, { method: 'POST', headers, agent: false }, (res: IncomingMessage) => {
      this.status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        this.text += c;
        this.wake();
      });
      res.on('end', () => {
        this.ended = true;
        this.wake();
      });
      res.on('error', () => undefined);
    });
    this.req.on('error', () => {
      this.ended = true;
      this.wake();
    });
    this.req.once('continue', () => {
      this.continued = true;
      this.req.write(this.queued + body);
      this.queued = '';
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  send(body: string): void {
    if (this.continued) this.req.write(body);
    else this.queued += body;
  }

  /** Takes the first `n` complete lines (or fewer, when the answer ends or the bound passes). */
  async take(n: number): Promise<{ lines: string[]; note: string }> {
    const deadline = Date.now() + AWAIT_MS;
    for (;;) {
      const lines = this.text.split('\n');
      const complete = lines.length - 1;
      if (complete >= n || this.ended || Date.now() >= deadline) {
        const got = lines.slice(0, Math.min(n, complete));
        this.text = lines.slice(got.length).join('\n');
        const note = got.length === n ? 'ok' : this.ended ? `ended after ${got.length}` : `only ${got.length} within the bound`;
        return { lines: got, note };
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Ends the call; returns the status and whatever was not taken yet. */
  close(): { status: number; rest: string } {
    const rest = this.text;
    this.req.destroy();
    return { status: this.status, rest };
  }
}

function maskText(text: string, extra: GwCase['mask'], vars: ReadonlyMap<string, string>): string {
  let out = text;
  const captured = [...vars].sort((a, b) => b[1].length - a[1].length);
  for (const [name, value] of captured) {
    out = out.replace(new RegExp(`(?<![\\d-])${value.replace(/[^\w]/g, '\\$&')}(?!\\d)`, 'g'), `<${name}>`);
  }
  for (const [re, to] of [...GATEWAY_MASKS, ...(extra ?? [])]) out = out.replace(re, to);
  return out;
}

/** Runs the steps of `c` against `member`; returns the masked transcript. */
export async function gatewayTranscript(member: Member, c: GwCase, vars: Map<string, string>): Promise<string> {
  const out: string[] = [];
  const calls = new Map<string, OpenCall>();
  const m = (t: string): string => (c.normalize ?? ((x: string) => x))(maskText(t, c.mask, vars));
  try {
    for (const step of c.steps) {
      if ('open' in step) {
        calls.set(step.open, new OpenCall(url(member, step.post), substitute(step.body, vars)));
        out.push(`> [${step.open}] POST ${step.post} ${shown(step.body)}\n`);
      } else if ('post' in step) {
        const a = await post(url(member, step.post), substitute(step.body ?? '', vars), step.method);
        for (const [name, fieldName] of Object.entries(step.capture ?? {})) {
          try {
            let v: unknown = JSON.parse(a.body);
            for (const part of fieldName.split('.')) v = (v as Record<string, unknown> | undefined)?.[part];
            if (typeof v === 'string') vars.set(name, v);
          } catch {
            // not JSON: nothing captured (the transcript shows the answer)
          }
        }
        out.push(`> ${step.method ?? 'POST'} ${step.post} ${shown(step.body)}\n< ${a.status} ${a.contentType}\n${m(a.body)}\n`);
      } else if ('send' in step) {
        calls.get(step.send)?.send(substitute(step.body, vars));
        out.push(`> [${step.send}] ${shown(step.body)}\n`);
      } else if ('await' in step) {
        const call = calls.get(step.await);
        if (call === undefined) throw new Error(`no open call ${step.await}`);
        const { lines, note } = await call.take(step.lines);
        const shown = lines.map(m);
        if (step.sorted === true) shown.sort();
        out.push(`< [${step.await}] ${step.lines} lines: ${note}\n${shown.join('\n')}\n`);
      } else {
        const call = calls.get(step.close);
        if (call === undefined) throw new Error(`no open call ${step.close}`);
        calls.delete(step.close);
        const { status, rest } = call.close();
        out.push(`< [${step.close}] closed, status ${status}, rest: ${m(rest)}\n`);
      }
    }
  } finally {
    for (const call of calls.values()) call.close();
  }
  return out.join('');
}

/**
 * Starts a member and waits until it has published its name and client URLs (both servers
 * answer before that; a member list taken earlier would show an unnamed member).
 */
async function startSide(kind: ServerKind, version: string): Promise<Member> {
  const env: Record<string, string> = kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: version } : {};
  const member = await startMember(kind, { name: 'gw', env });
  await eventually(`${kind} member published`, async () => {
    const a = await post(url(member, '/cluster/member/list'), '{}');
    const list = JSON.parse(a.body) as { members?: Array<{ name?: string; clientURLs?: string[] }> };
    return list.members?.length === 1 && list.members[0]?.name && list.members[0].clientURLs?.length ? true : undefined;
  });
  return member;
}

/**
 * Declares one test per case; the reference etcd and the subject are started once for the
 * file and shared by its cases, which run in order.
 */
export function gatewaySuite(title: string, cases: readonly GwCase[]): void {
  const subject = diffSubject();
  void describe(`${title}: ${subject} vs etcd ${etcdVersion()}`, () => {
    let ref: Member | undefined;
    let sub: Member | undefined;
    const refVars = new Map<string, string>();
    const subVars = new Map<string, string>();
    before(async () => {
      [ref, sub] = await Promise.all([startSide('etcd', etcdVersion()), startSide(subject, etcdVersion())]);
    });
    after(async () => {
      await Promise.all([ref?.kill9(), sub?.kill9()]);
    });
    for (const c of cases) {
      void it(c.name, async () => {
        const [expected, actual] = await Promise.all([gatewayTranscript(ref!, c, refVars), gatewayTranscript(sub!, c, subVars)]);
        if (process.env.DIFF_SHOW === '1') process.stderr.write(`# ${c.name} (reference)\n${expected}\n`);
        if (actual !== expected) {
          const tail = sub!.logs().split('\n').slice(-20).join('\n');
          assert.equal(actual, expected, `${subject} gateway transcript differs from etcd's; ${subject} log tail:\n${tail}`);
        }
      });
    }
  });
}
