/**
 * Differential runs: the same etcdctl sequence against a fresh real etcd 3.4 (the reference) and
 * a fresh subject member, compared as masked transcripts (exit code, stdout, stderr per step).
 *
 * The subject is kvstore (presenting etcd's version through KVSTORE_SERVER_VERSION) unless
 * DIFF_SUBJECT=etcd, which compares etcd with a second etcd: a check of the harness and masks
 * that needs no kvstore. DIFF_SHOW=1 prints the reference transcripts. Each case gets new members with the same name and flags on both sides;
 * revisions are therefore comparable and are not masked (see mask.ts for what is).
 *
 * Templates in args and input: `{tmp}` a per-side temp dir, `{endpoint}` the member's host:port,
 * `{<var>}` a value captured by an earlier step. The transcript shows the template, not the
 * substituted text, so both sides print the same command lines.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { etcdctl, spawnEtcdctl, type CtlProcess } from './etcdctl.js';
import { mask, type MaskOptions } from './mask.js';
import { etcdVersion, startMember } from './members.js';
import { makeTempDir } from './registry.js';
import type { Member, ServerKind } from './server-process.js';

/** Run etcdctl to completion; optionally capture group 1 of regexes on stdout into variables. */
export interface RunStep {
  readonly run: readonly string[];
  readonly input?: string;
  readonly capture?: Readonly<Record<string, RegExp>>;
  /** Extra masks for this step's output. */
  readonly mask?: MaskOptions['extra'];
  /** Applied to masked stdout, for output whose order the server does not define. */
  readonly normalize?: (stdout: string) => string;
}
/** Start a long-running etcdctl (watch, lock, elect) under a handle name. */
export interface SpawnStep {
  readonly spawn: string;
  readonly args: readonly string[];
}
/** Wait until the handle's stdout has at least `lines` lines (a timeout is recorded, not thrown). */
export interface AwaitStep {
  readonly await: string;
  readonly lines: number;
}
/** Interrupt the handle (default SIGINT) and record its exit code and output (minus `context canceled` logs). */
export interface StopStep {
  readonly stop: string;
  readonly signal?: NodeJS.Signals;
  readonly mask?: MaskOptions['extra'];
}
export type DiffStep = RunStep | SpawnStep | AwaitStep | StopStep;

/** One row of a differential table. */
export interface DiffCase {
  readonly name: string;
  /** Extra server flags, given to both sides. */
  readonly serverArgs?: readonly string[];
  /** Steps; a bare string array is a RunStep without options. */
  readonly steps: readonly (DiffStep | readonly string[])[];
  /** Masks for every step of this case. */
  readonly mask?: MaskOptions;
}

/** Which server is compared with the reference etcd. */
export function diffSubject(): ServerKind {
  return process.env.DIFF_SUBJECT === 'etcd' ? 'etcd' : 'kvstore';
}

const AWAIT_TIMEOUT_MS = 10_000;

function substitute(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => vars.get(name) ?? all);
}

function block(title: string, code: number | null | string, stdout: string, stderr: string): string {
  return `$ ${title}\nexit ${code}\n--- stdout\n${stdout}--- stderr\n${stderr}`;
}

/** Runs the steps of `c` against `member` and returns the masked transcript. */
export async function transcript(member: Member, c: DiffCase): Promise<string> {
  const tmp = makeTempDir('diff');
  const vars = new Map<string, string>([['tmp', tmp], ['endpoint', member.endpoint]]);
  const handles = new Map<string, CtlProcess>();
  const base: MaskOptions = { ...c.mask, paths: [tmp, ...(c.mask?.paths ?? [])] };
  const m = (text: string, extra?: MaskOptions['extra']) => mask(text, { ...base, extra: [...(base.extra ?? []), ...(extra ?? [])] });
  const out: string[] = [];
  for (const raw of c.steps) {
    const step: DiffStep = Array.isArray(raw) ? { run: raw as readonly string[] } : (raw as DiffStep);
    if ('run' in step) {
      const args = step.run.map((a) => substitute(a, vars));
      const input = step.input === undefined ? undefined : substitute(step.input, vars);
      const r = await etcdctl(member.endpoint, args, input === undefined ? {} : { input });
      for (const [name, re] of Object.entries(step.capture ?? {})) {
        const got = re.exec(r.stdout);
        if (got !== null) vars.set(name, got[1]);
      }
      const code = r.timedOut ? 'timed out' : (r.code ?? r.signal);
      const inputNote = step.input === undefined ? '' : ` <<< ${step.input.length > 60 ? `${step.input.length} chars` : JSON.stringify(step.input)}`;
      const stdout = (step.normalize ?? ((x: string) => x))(m(r.stdout, step.mask));
      out.push(block(`etcdctl ${step.run.join(' ')}${inputNote}`, code, stdout, m(r.stderr, step.mask)));
    } else if ('spawn' in step) {
      handles.set(step.spawn, spawnEtcdctl(member.endpoint, step.args.map((a) => substitute(a, vars))));
      out.push(`$ [${step.spawn}] etcdctl ${step.args.join(' ')} &\n`);
    } else if ('await' in step) {
      const h = handles.get(step.await);
      let note = 'ok';
      try {
        await h?.waitFor((s) => s.split('\n').length - 1 >= step.lines, AWAIT_TIMEOUT_MS);
      } catch {
        note = `did not reach ${step.lines} lines`;
      }
      out.push(`$ [${step.await}] await ${step.lines} lines: ${note}\n`);
    } else {
      const h = handles.get(step.stop);
      if (h === undefined) throw new Error(`no handle ${step.stop}`);
      const r = await h.stop(step.signal ?? 'SIGINT');
      // Whether an interrupted call was in flight (and is logged as canceled) is a client-side race.
      const stderr = r.stderr.split('\n').filter((l) => !l.includes('desc = context canceled"')).join('\n');
      out.push(block(`[${step.stop}] stop`, r.code ?? r.signal, m(r.stdout, step.mask), m(stderr, step.mask)));
    }
  }
  for (const h of handles.values()) await h.stop('SIGKILL');
  return out.join('');
}

async function startSide(kind: ServerKind, c: DiffCase, version: string): Promise<Member> {
  const env: Record<string, string> = kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: version } : {};
  return startMember(kind, { name: 'diff', args: c.serverArgs ?? [], env });
}

/**
 * Declares one test per case: reference etcd and the subject run the case side by side on fresh
 * members; the masked transcripts must be equal.
 */
export function differentialSuite(title: string, cases: readonly DiffCase[]): void {
  const subject = diffSubject();
  void describe(`${title}: ${subject} vs etcd ${etcdVersion()}`, () => {
    for (const c of cases) {
      void it(c.name, async () => {
        const version = etcdVersion();
        const [ref, sub] = await Promise.all([startSide('etcd', c, version), startSide(subject, c, version)]);
        try {
          const [expected, actual] = await Promise.all([transcript(ref, c), transcript(sub, c)]);
          if (process.env.DIFF_SHOW === '1') process.stderr.write(`# ${c.name} (reference)\n${expected}\n`);
          if (actual !== expected) {
            const tail = sub.logs().split('\n').slice(-30).join('\n');
            assert.equal(actual, expected, `${subject} transcript differs from etcd's; ${subject} log tail:\n${tail}`);
          }
        } finally {
          await Promise.all([ref.kill9(), sub.kill9()]);
        }
      });
    }
  });
}
