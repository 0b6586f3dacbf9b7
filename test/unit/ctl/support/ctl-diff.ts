/**
 * Differential runs of kvstorectl against etcdctl 3.4 (shared by test/compat/kvstorectl-*).
 *
 * For each case of a table, on ONE real etcd 3.4 member per test file:
 *   reset → setup → the steps with etcdctl (the reference transcript),
 *   reset → setup → the same steps with kvstorectl,
 * and, at the same time, on one kvstore member per file: reset → setup → the steps with
 * kvstorectl. Outputs are recorded raw and masked per comparison.
 * Both kvstorectl transcripts must equal the reference after masking (test/support/mask.ts with
 * revisions, plus the `fields` revision lines and durations of `endpoint health` tables).
 * `readOnly` cases set up once and let both tools read the same state, so their transcripts are
 * compared against etcd with revisions kept, byte for byte (protobuf output included); protobuf
 * output is not compared against kvstore (binary revisions differ there).
 *
 * Reset (not recorded): every key deleted, every lease revoked, through etcdctl.
 * Templates: `{endpoint}`, `{tmp}` (per-run temp dir), `{<var>}` captured by an earlier step.
 * kvstorectl is run by kvstorectl-runner.ts; masks are in ctl-masks.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { etcdctl, etcdVersion, makeTempDir, mask, spawnEtcdctl, startMember, type CtlProcess, type MaskOptions, type Member } from '../../../support/processes.js';
import { ALWAYS_EXTRA, KVSTORE_SERVER_GAPS, LOOSE_TABLES, REVISION_EXTRA } from './ctl-masks.js';
import { runTool, spawnKvstorectl, type Tool } from './kvstorectl-runner.js';

export { kvstorectl, KVSTORECTL_MAIN, runTool, spawnKvstorectl, type Tool } from './kvstorectl-runner.js';

/** Run to completion; optionally capture group 1 of regexes on stdout into variables. */
export interface RunStep {
  readonly run: readonly string[];
  readonly input?: string;
  readonly capture?: Readonly<Record<string, RegExp>>;
  readonly mask?: MaskOptions['extra'];
  /** Binary output: shown as hex, and not compared against kvstore. */
  readonly binary?: boolean;
  /** Table output whose widths vary between runs (durations): compared loosely everywhere. */
  readonly looseTable?: boolean;
  readonly env?: Readonly<Record<string, string>>;
}
export interface SpawnStep {
  readonly spawn: string;
  readonly args: readonly string[];
  /** Keep stdin open (interactive commands); lines are sent with `send` steps. */
  readonly stdin?: boolean;
}
export interface SendStep {
  readonly send: string;
  readonly text: string;
}
export interface AwaitStep {
  readonly await: string;
  readonly lines: number;
}
export interface StopStep {
  readonly stop: string;
  readonly signal?: NodeJS.Signals;
  readonly mask?: MaskOptions['extra'];
}
/** Wait for a moment (e.g. so a spawned watch is established). */
export interface SleepStep {
  readonly sleepMs: number;
}
export type CtlStep = RunStep | SpawnStep | SendStep | AwaitStep | StopStep | SleepStep;

export interface CtlCase {
  readonly name: string;
  /** Run once per side with etcdctl before the steps, not recorded. */
  readonly setup?: readonly (readonly string[] | RunStep)[];
  readonly steps: readonly (CtlStep | readonly string[])[];
  /** The steps do not change the store: both tools read one setup (revisions compared). */
  readonly readOnly?: boolean;
  readonly mask?: MaskOptions;
  /** Skip the kvstore side (behaviour only etcd has, e.g. a crash of etcdctl itself). */
  readonly etcdOnly?: boolean;
}

const AWAIT_TIMEOUT_MS = 10_000;

function substitute(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => vars.get(name) ?? all);
}

function block(title: string, code: number | null | string, stdout: string, stderr: string): string {
  return `$ ${title}\nexit ${code}\n--- stdout\n${stdout}--- stderr\n${stderr}`;
}

function isRun(s: CtlStep): s is RunStep {
  return 'run' in s;
}

/** Resets a member: deletes every key and revokes every lease (through etcdctl). */
export async function resetMember(m: Member): Promise<void> {
  const del = await etcdctl(m.endpoint, ['del', '', '--prefix']);
  assert.equal(del.code, 0, del.stderr);
  const leases = await etcdctl(m.endpoint, ['lease', 'list']);
  for (const id of leases.stdout.split('\n').slice(1).filter((s) => /^[0-9a-f]{16}$/.test(s))) {
    await etcdctl(m.endpoint, ['lease', 'revoke', id]);
  }
}

async function runSetup(m: Member, c: CtlCase, vars: Map<string, string>): Promise<void> {
  for (const raw of c.setup ?? []) {
    const step: RunStep = Array.isArray(raw) ? { run: raw as readonly string[] } : (raw as RunStep);
    const r = await etcdctl(m.endpoint, step.run.map((a) => substitute(a, vars)), step.input === undefined ? {} : { input: step.input });
    assert.equal(r.code, 0, `setup ${step.run.join(' ')}: ${r.stderr}`);
    for (const [name, re] of Object.entries(step.capture ?? {})) {
      const got = re.exec(r.stdout);
      if (got !== null) vars.set(name, got[1]);
    }
  }
}

/** One recorded entry of a transcript (raw output; masked when rendered). */
type Entry =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'result';
      readonly title: string;
      readonly code: number | string | null;
      readonly stdout: string;
      readonly stderr: string;
      readonly binary: boolean;
      readonly looseTable?: boolean;
      readonly mask?: MaskOptions['extra'];
    };

/** Runs the steps of `c` with `tool` against `member`; returns the raw entries and the temp dir. */
export async function ctlRun(tool: Tool, member: Member, c: CtlCase, vars: Map<string, string>): Promise<{ entries: Entry[]; tmp: string }> {
  const tmp = makeTempDir('ctl-diff');
  vars.set('tmp', tmp);
  vars.set('endpoint', member.endpoint);
  const handles = new Map<string, CtlProcess>();
  const out: Entry[] = [];
  const text = (t: string): void => void out.push({ kind: 'text', text: t });
  try {
    for (const raw of c.steps) {
      const step: CtlStep = Array.isArray(raw) ? { run: raw as readonly string[] } : (raw as CtlStep);
      if (isRun(step)) {
        const args = step.run.map((a) => substitute(a, vars));
        const input = step.input === undefined ? undefined : substitute(step.input, vars);
        const r = await runTool(tool, member.endpoint, args, { ...(input === undefined ? {} : { input }), ...(step.env === undefined ? {} : { env: step.env }) });
        for (const [name, re] of Object.entries(step.capture ?? {})) {
          const got = re.exec(r.stdout);
          if (got !== null) vars.set(name, got[1]);
        }
        const inputNote = step.input === undefined ? '' : ` <<< ${step.input.length > 60 ? `${step.input.length} chars` : JSON.stringify(step.input)}`;
        out.push({
          kind: 'result',
          title: `ctl ${step.run.join(' ')}${inputNote}`,
          code: r.timedOut ? 'timed out' : (r.code ?? r.signal),
          stdout: r.stdout,
          stderr: r.stderr,
          binary: step.binary === true,
          looseTable: step.looseTable === true,
          ...(step.mask === undefined ? {} : { mask: step.mask }),
        });
      } else if ('spawn' in step) {
        const args = step.args.map((a) => substitute(a, vars));
        const opts = step.stdin === true ? { stdin: true } : {};
        handles.set(step.spawn, tool === 'etcdctl' ? spawnEtcdctl(member.endpoint, args, opts) : spawnKvstorectl(member.endpoint, args, opts));
        text(`$ [${step.spawn}] ctl ${step.args.join(' ')} &\n`);
      } else if ('send' in step) {
        handles.get(step.send)?.write(substitute(step.text, vars));
        text(`$ [${step.send}] <<< ${JSON.stringify(step.text)}\n`);
      } else if ('await' in step) {
        const h = handles.get(step.await);
        let note = 'ok';
        try {
          await h?.waitFor((s) => s.split('\n').length - 1 >= step.lines, AWAIT_TIMEOUT_MS);
        } catch {
          note = `did not reach ${step.lines} lines`;
        }
        text(`$ [${step.await}] await ${step.lines} lines: ${note}\n`);
      } else if ('stop' in step) {
        const h = handles.get(step.stop);
        if (h === undefined) throw new Error(`no handle ${step.stop}`);
        const r = await h.stop(step.signal ?? 'SIGINT');
        out.push({ kind: 'result', title: `[${step.stop}] stop`, code: r.code ?? r.signal, stdout: r.stdout, stderr: r.stderr, binary: false, ...(step.mask === undefined ? {} : { mask: step.mask }) });
      } else {
        await new Promise((resolve) => setTimeout(resolve, step.sleepMs));
      }
    }
  } finally {
    for (const h of handles.values()) await h.stop('SIGKILL');
  }
  return { entries: out, tmp };
}

/** Renders a run: masked text (revisions masked or kept; binary output as hex or hidden). */
export function render(
  run: { entries: readonly Entry[]; tmp: string },
  c: CtlCase,
  opts: { readonly revisions: boolean; readonly hideBinary: boolean; readonly looseTables: boolean; readonly serverGaps?: boolean },
): string {
  const base: MaskOptions = { ...c.mask, revisions: opts.revisions, paths: [run.tmp, ...(c.mask?.paths ?? [])] };
  const m = (t: string, extra?: MaskOptions['extra'], loose = false): string =>
    mask(t, {
      ...base,
      extra: [
        ...ALWAYS_EXTRA,
        ...(opts.revisions ? REVISION_EXTRA : []),
        ...(opts.looseTables || loose ? LOOSE_TABLES : []),
        ...(opts.serverGaps === true ? KVSTORE_SERVER_GAPS : []),
        ...(base.extra ?? []),
        ...(extra ?? []),
      ],
    });
  return run.entries
    .map((e) => {
      if (e.kind === 'text') return e.text;
      const stdout = e.binary ? (opts.hideBinary ? '<binary>\n' : `${Buffer.from(e.stdout, 'latin1').toString('hex')}\n`) : m(e.stdout, e.mask, e.looseTable === true);
      return block(e.title, e.code, stdout, m(e.stderr, e.mask));
    })
    .join('');
}

/**
 * Declares the suite: one etcd and one kvstore member for the file, one test per case (see the
 * file header). DIFF_SHOW=1 prints the reference transcripts.
 */
export function ctlDiffSuite(title: string, cases: readonly CtlCase[]): void {
  void describe(`${title}: kvstorectl vs etcdctl ${etcdVersion()}`, () => {
    let etcd: Member;
    let kvstore: Member;
    before(async () => {
      const version = etcdVersion();
      [etcd, kvstore] = await Promise.all([
        startMember('etcd', { name: 'ctl' }),
        startMember('kvstore', { name: 'ctl', env: { KVSTORE_SERVER_VERSION: version } }),
      ]);
    });
    after(async () => {
      await Promise.all([etcd?.kill9(), kvstore?.kill9()]);
    });
    for (const c of cases) {
      void it(c.name, async () => {
        const refVars = new Map<string, string>();
        await resetMember(etcd);
        await runSetup(etcd, c, refVars);
        const ref = await ctlRun('etcdctl', etcd, c, refVars);
        const onEtcd = async (): Promise<Awaited<ReturnType<typeof ctlRun>>> => {
          const vars = new Map<string, string>();
          if (c.readOnly !== true) {
            await resetMember(etcd);
            await runSetup(etcd, c, vars);
          } else for (const [k, v] of refVars) vars.set(k, v);
          return ctlRun('kvstorectl', etcd, c, vars);
        };
        const onKvstore = async (): Promise<Awaited<ReturnType<typeof ctlRun>> | undefined> => {
          if (c.etcdOnly === true) return undefined;
          const vars = new Map<string, string>();
          await resetMember(kvstore);
          await runSetup(kvstore, c, vars);
          return ctlRun('kvstorectl', kvstore, c, vars);
        };
        const [sameServer, subject] = await Promise.all([onEtcd(), onKvstore()]);
        const sameOpts = { revisions: c.readOnly !== true, hideBinary: false, looseTables: false };
        const expected = render(ref, c, sameOpts);
        if (process.env.DIFF_SHOW === '1') process.stderr.write(`# ${c.name} (etcdctl)\n${expected}\n`);
        assert.equal(render(sameServer, c, sameOpts), expected, 'kvstorectl and etcdctl against the same etcd server');
        if (subject !== undefined) {
          const masked = { revisions: true, hideBinary: true, looseTables: true, serverGaps: true };
          assert.equal(render(subject, c, masked), render(ref, c, masked), 'kvstorectl against kvstore vs etcdctl against etcd');
        }
      });
    }
  });
}
