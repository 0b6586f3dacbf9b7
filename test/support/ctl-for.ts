/**
 * etcdctl bound to one member, with assertions for the common cases of black-box tests.
 */
import assert from 'node:assert/strict';
import { etcdctl, type CtlOptions, type CtlResult } from './etcdctl.js';
import { eventually } from './eventually.js';
import type { Member } from './server-process.js';

/** etcdctl bound to a member's endpoint. */
export interface BoundCtl {
  /** Runs and returns whatever happened. */
  run(args: readonly string[], opts?: CtlOptions): Promise<CtlResult>;
  /** Runs, asserts exit status 0, returns stdout. */
  ok(args: readonly string[], opts?: CtlOptions): Promise<string>;
  /** Runs, asserts a non-zero exit status, returns the result. */
  fails(args: readonly string[], opts?: CtlOptions): Promise<CtlResult>;
  /**
   * Runs until it succeeds, while every refusal matches `transient` (e.g. a membership change
   * refused as `etcdserver: unhealthy cluster` until the members have been connected for 5 s);
   * any other refusal fails the test. Returns stdout.
   */
  okOnceAccepted(args: readonly string[], transient: RegExp): Promise<string>;
  /** The member's current store revision (header of a `get -w json`). */
  revision(): Promise<number>;
}

function describeRun(args: readonly string[], r: CtlResult): string {
  return `etcdctl ${args.join(' ')} → exit ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
}

/** Binds etcdctl to `member` (or to a list of endpoints). */
export function ctlFor(target: Member | string | readonly string[]): BoundCtl {
  const endpoints = typeof target === 'string' || Array.isArray(target) ? (target as string | readonly string[]) : (target as Member).endpoint;
  const run = (args: readonly string[], opts?: CtlOptions) => etcdctl(endpoints, args, opts);
  return {
    run,
    async ok(args, opts) {
      const r = await run(args, opts);
      assert.equal(r.code, 0, describeRun(args, r));
      return r.stdout;
    },
    async fails(args, opts) {
      const r = await run(args, opts);
      assert.ok(r.code !== 0 && !r.timedOut, describeRun(args, r));
      return r;
    },
    async okOnceAccepted(args, transient) {
      let refusal = '';
      const outcome = await eventually<{ accepted?: string; refused?: string }>(`etcdctl ${args.join(' ')} is accepted`, async () => {
        const r = await run(args);
        refusal = r.stdout + r.stderr;
        if (r.code === 0) return { accepted: r.stdout };
        return transient.test(refusal) ? undefined : { refused: refusal };
      }, { describe: () => refusal });
      assert.ok(outcome.accepted !== undefined, `etcdctl ${args.join(' ')}: not an acceptable refusal:\n${outcome.refused}`);
      return outcome.accepted;
    },
    async revision() {
      const r = await run(['get', 'revision-probe', '-w', 'json']);
      assert.equal(r.code, 0, describeRun(['get', 'revision-probe', '-w', 'json'], r));
      return (JSON.parse(r.stdout) as { header: { revision: number } }).header.revision;
    },
  };
}
