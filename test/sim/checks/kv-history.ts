/**
 * Checks of a KV client history (world/history.ts):
 * - linearizability, per key (every operation touches one key, and the store's keys are
 *   independent registers, so the history is linearizable iff each key's sub-history is);
 * - revisions respect real time: an operation that began after another one was answered
 *   sees at least its revision, and one that changed the store gets a larger one;
 * - two answered operations that changed the store never share a revision;
 * - every value (all written values are unique) is seen with one modRevision, the revision
 *   its write was answered with.
 */
import { describeOp, type KvInput, type KvOutput, type OpRecord } from '../world/history.js';
import { keyModel } from './kv-model.js';
import { checkLinearizable, type LinOp } from './linearizability.js';

export interface KvHistoryProblem {
  readonly check: 'linearizability' | 'revision-order' | 'value-revision';
  readonly message: string;
  /** Operations to show with the problem. */
  readonly ops: readonly string[];
}

/** The value an answered operation saw stored, if it saw one. */
function observed(op: OpRecord): string | null | undefined {
  const o = op.output;
  if (op.status !== 'ok' || !o) return undefined;
  if (o.kind === 'get') return o.value;
  if (o.kind === 'put' || o.kind === 'putl') return o.prev;
  if (o.kind === 'cas') return o.succeeded ? (op.input as { expect: string | null }).expect : o.current;
  return undefined;
}

/**
 * Operations that can matter to the checker: answered ones, and writes whose outcome is
 * unknown (reads with an unknown outcome constrain nothing). An unknown put or swap whose
 * value no answered operation ever saw is left out when every delete that reported removing a
 * key had returned before it was invoked: in any linearization, taking it out keeps every other operation
 * valid (nothing between it and the next write could have observed it), so the history is
 * linearizable with it iff without it. This keeps many timed-out writes tractable.
 */
function linOps(ops: readonly OpRecord[]): LinOp<KvInput, KvOutput>[] {
  const seen = new Set<string | null>();
  for (const op of ops) seen.add(observed(op) ?? null);
  // Deletes that removed a key, and revokes (which may have): they observe that a key exists.
  // One that was still running when a write was invoked may be linearized after that write, so
  // what counts is when it returned.
  const lastDeletion = Math.max(
    -1,
    ...ops.filter((op) => (op.output?.kind === 'del' && op.output.deleted > 0) || op.output?.kind === 'revoke').map((op) => op.ret ?? Infinity),
  );
  const out: LinOp<KvInput, KvOutput>[] = [];
  for (const op of ops) {
    if (op.status === 'ok') {
      out.push({ id: op.id, call: op.call, ret: op.ret!, input: op.input, output: op.output });
      continue;
    }
    if (op.status === 'failed' || op.input.kind === 'get') continue;
    const value = op.input.kind === 'put' || op.input.kind === 'cas' ? op.input.value : undefined;
    if (value !== undefined && !seen.has(value) && lastDeletion < op.call) continue;
    out.push({ id: op.id, call: op.call, ret: Infinity, input: op.input, output: undefined });
  }
  return out;
}

export function checkKvLinearizable(ops: readonly OpRecord[]): KvHistoryProblem[] {
  const byKey = new Map<string, OpRecord[]>();
  for (const op of ops) byKey.set(op.key, [...(byKey.get(op.key) ?? []), op]);
  const problems: KvHistoryProblem[] = [];
  for (const [key, keyOps] of [...byKey].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const res = checkLinearizable(keyModel, linOps(keyOps));
    if (res.ok) continue;
    const prefix = new Set(res.longestPrefix);
    problems.push({
      check: 'linearizability',
      message: `key ${key}: ${res.inconclusive ? 'search budget exhausted' : 'not linearizable'} (${keyOps.length} ops, ${res.explored} steps; longest linearizable prefix ${res.longestPrefix.join(' ')})`,
      ops: keyOps.map((op) => `${prefix.has(op.id) ? '  ' : '* '}${describeOp(op)}`),
    });
  }
  return problems;
}

/** Whether an answered operation certainly changed the store (a revoke may or may not have). */
function mutated(op: OpRecord): boolean {
  const o = op.output;
  if (!o) return false;
  return o.kind === 'put' || o.kind === 'putl' || (o.kind === 'del' && o.deleted > 0) || (o.kind === 'cas' && o.succeeded);
}

export function checkRevisions(ops: readonly OpRecord[]): KvHistoryProblem[] {
  const problems: KvHistoryProblem[] = [];
  const answered = ops.filter((op) => op.status === 'ok' && op.revision !== undefined);
  const events: Array<{ at: number; op: OpRecord; isCall: boolean }> = [];
  for (const op of answered) events.push({ at: op.call, op, isCall: true }, { at: op.ret!, op, isCall: false });
  events.sort((a, b) => a.at - b.at);
  const floor = new Map<number, { rev: bigint; by: OpRecord | undefined }>();
  let max: { rev: bigint; by: OpRecord | undefined } = { rev: 0n, by: undefined };
  for (const e of events) {
    if (e.isCall) {
      floor.set(e.op.id, max);
      continue;
    }
    const f = floor.get(e.op.id)!;
    const rev = e.op.revision!;
    if (rev < f.rev || (mutated(e.op) && rev === f.rev)) {
      problems.push({
        check: 'revision-order',
        message: `op #${e.op.id} answered at revision ${rev}, but #${f.by?.id} (answered before it was invoked) had ${f.rev}`,
        ops: [describeOp(e.op), ...(f.by ? [describeOp(f.by)] : [])],
      });
    }
    if (rev > max.rev) max = { rev, by: e.op };
  }
  const changedAt = new Map<bigint, OpRecord>();
  for (const op of answered) {
    if (!mutated(op)) continue;
    const other = changedAt.get(op.revision!);
    if (other) {
      problems.push({ check: 'revision-order', message: `ops #${other.id} and #${op.id} both changed the store at revision ${op.revision}`, ops: [describeOp(other), describeOp(op)] });
    }
    changedAt.set(op.revision!, op);
  }
  const writtenAt = new Map<string, { rev: bigint; op: OpRecord }>();
  for (const op of answered) {
    const o = op.output!;
    const value = o.kind === 'put' || o.kind === 'putl' || (o.kind === 'cas' && o.succeeded) ? (op.input as { value: string }).value : undefined;
    if (value !== undefined) writtenAt.set(value, { rev: op.revision!, op });
  }
  const seenAt = new Map<string, { rev: bigint; op: OpRecord }>();
  /** Values already reported (one problem per value). */
  const misread = new Set<string>();
  for (const op of answered) {
    const o = op.output!;
    if (o.kind !== 'get' || o.value === null) continue;
    const w = writtenAt.get(o.value) ?? seenAt.get(o.value);
    if (w && w.rev !== o.modRevision && !misread.has(o.value)) {
      misread.add(o.value);
      problems.push({
        check: 'value-revision',
        message: `value ${o.value} read with modRevision ${o.modRevision}, but #${w.op.id} had it at ${w.rev}`,
        ops: [describeOp(op), describeOp(w.op)],
      });
    }
    if (!w) seenAt.set(o.value, { rev: o.modRevision, op });
    if (o.modRevision > op.revision!) {
      problems.push({ check: 'value-revision', message: `read #${op.id} returned a modRevision above its header revision`, ops: [describeOp(op)] });
    }
  }
  return problems;
}

export function checkKvHistory(ops: readonly OpRecord[]): KvHistoryProblem[] {
  return [...checkRevisions(ops), ...checkKvLinearizable(ops)];
}
