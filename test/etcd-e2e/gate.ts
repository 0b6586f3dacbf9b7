/**
 * The gate: compares one server's outcomes with etcd's recorded reference and the two lists.
 * Pure: no I/O.
 *
 * A kvstore failure (fail or timeout) is
 * - `both-fail`   when etcd fails it too (reference not pass/skip),
 * - `accepted`    when accepted.json names it (out of scope),
 * - `known-open`  when known-open.json names it (open work, not accepted),
 * - `regression`  otherwise — the run fails.
 * A pass is `ok`, or `fixed` when a list still names it (the entry should go).
 */
import type { Lists } from './lists.js';
import type { Outcome, Result } from './run-one.js';

export const VERDICTS = ['ok', 'fixed', 'both-fail', 'accepted', 'known-open', 'regression'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Judged {
  readonly outcome: Outcome;
  readonly reference: Result | undefined;
  readonly verdict: Verdict;
  /** For `fixed`: the list file that should lose the entry. */
  readonly listFile?: string;
}

export interface GateReport {
  readonly judged: readonly Judged[];
  readonly regressions: readonly Judged[];
  /** One line per list change to make (a listed test that passes, a listed test the suite no longer has). */
  readonly listChanges: readonly string[];
}

const isOk = (r: Result | undefined): boolean => r === 'pass' || r === 'skip';

export function judge(outcome: Outcome, lists: Lists): Judged {
  const reference = lists.reference?.tests[outcome.name]?.result;
  const accepted = outcome.name in lists.accepted.tests;
  const knownOpen = outcome.name in lists.knownOpen.tests;
  if (isOk(outcome.result)) {
    if (knownOpen) return { outcome, reference, verdict: 'fixed', listFile: 'known-open.json' };
    if (accepted) return { outcome, reference, verdict: 'fixed', listFile: 'accepted.json' };
    return { outcome, reference, verdict: 'ok' };
  }
  if (reference !== undefined && !isOk(reference)) return { outcome, reference, verdict: 'both-fail' };
  if (accepted) return { outcome, reference, verdict: 'accepted' };
  if (knownOpen) return { outcome, reference, verdict: 'known-open' };
  return { outcome, reference, verdict: 'regression' };
}

/** Judges a run; `suiteTests` (the suite's full list) lets it spot list entries for tests that no longer exist. */
export function gate(outcomes: readonly Outcome[], lists: Lists, suiteTests: readonly string[]): GateReport {
  const judged = outcomes.map((o) => judge(o, lists));
  const listChanges: string[] = [];
  for (const j of judged) {
    if (j.verdict === 'fixed') listChanges.push(`${j.outcome.name} passes now: remove it from ${j.listFile}`);
  }
  const known = new Set(suiteTests);
  for (const [fileName, list] of [['accepted.json', lists.accepted], ['known-open.json', lists.knownOpen]] as const) {
    for (const name of Object.keys(list.tests)) if (!known.has(name)) listChanges.push(`${name} is not in the suite: remove it from ${fileName}`);
  }
  return { judged, regressions: judged.filter((j) => j.verdict === 'regression'), listChanges };
}

/** Tests whose result differs from the reference (used when etcd itself is run against its record). */
export function referenceChanges(outcomes: readonly Outcome[], lists: Lists): string[] {
  const changes: string[] = [];
  for (const o of outcomes) {
    const ref = lists.reference?.tests[o.name]?.result;
    if (ref === undefined) changes.push(`${o.name}: not in reference.json (now ${o.result})`);
    else if (isOk(ref) !== isOk(o.result)) changes.push(`${o.name}: reference ${ref}, now ${o.result}`);
  }
  return changes;
}
