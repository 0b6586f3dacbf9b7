/**
 * Client histories: every operation a simulated client invoked, with its invocation and
 * response as points of one global event sequence (`call` < `ret`; a smaller number
 * happened first in the simulation) and their virtual times.
 *
 * Status: 'ok' — answered with `output`; 'failed' — definitely had no effect (e.g. NoLeader,
 * or a read that failed); 'unknown' — may or may not have taken effect (timeout, the member
 * crashed, or the run ended first): the checker may place it anywhere after its call.
 */

/**
 * A single-key KV operation (every op of a history touches one key). Leases are per key:
 * a lease is granted for one key, only ever attached to it (`putl`) and revoked through it,
 * so lease operations belong to that key's history too.
 */
export type KvInput =
  | { readonly kind: 'put'; readonly value: string }
  | { readonly kind: 'get' }
  | { readonly kind: 'del' }
  | { readonly kind: 'cas'; readonly expect: string | null; readonly value: string }
  | { readonly kind: 'grant'; readonly lease: string }
  | { readonly kind: 'putl'; readonly value: string; readonly lease: string }
  | { readonly kind: 'revoke'; readonly lease: string };

export type KvOutput =
  | { readonly kind: 'put'; readonly prev: string | null }
  | { readonly kind: 'get'; readonly value: string | null; readonly modRevision: bigint }
  | { readonly kind: 'del'; readonly deleted: number }
  | { readonly kind: 'cas'; readonly succeeded: boolean; readonly current: string | null }
  | { readonly kind: 'grant' }
  | { readonly kind: 'putl'; readonly prev: string | null }
  | { readonly kind: 'revoke' }
  /** putl or revoke answered LeaseNotFound: the lease did not exist then. */
  | { readonly kind: 'lease-missing' };

export type OpStatus = 'pending' | 'ok' | 'failed' | 'unknown';

export interface OpRecord {
  readonly id: number;
  readonly client: number;
  readonly node: bigint;
  readonly key: string;
  readonly input: KvInput;
  readonly call: number;
  readonly callAt: number;
  ret: number | undefined;
  retAt: number | undefined;
  status: OpStatus;
  output: KvOutput | undefined;
  /** Header revision of an 'ok' answer (undefined for lease-missing). */
  revision: bigint | undefined;
  error: string | undefined;
}

export class History {
  readonly ops: OpRecord[] = [];
  #seq = 0;

  invoke(client: number, node: bigint, key: string, input: KvInput, nowMs: number): OpRecord {
    const op: OpRecord = {
      id: this.ops.length,
      client,
      node,
      key,
      input,
      call: ++this.#seq,
      callAt: nowMs,
      ret: undefined,
      retAt: undefined,
      status: 'pending',
      output: undefined,
      revision: undefined,
      error: undefined,
    };
    this.ops.push(op);
    return op;
  }

  ok(op: OpRecord, output: KvOutput, revision: bigint | undefined, nowMs: number): void {
    this.#end(op, 'ok', nowMs);
    op.output = output;
    op.revision = revision;
  }

  failed(op: OpRecord, error: string, nowMs: number): void {
    this.#end(op, 'failed', nowMs);
    op.error = error;
  }

  unknown(op: OpRecord, error: string, nowMs: number): void {
    this.#end(op, 'unknown', nowMs);
    op.error = error;
  }

  #end(op: OpRecord, status: OpStatus, nowMs: number): void {
    if (op.status !== 'pending') throw new Error(`history: op ${op.id} answered twice`);
    op.status = status;
    op.ret = ++this.#seq;
    op.retAt = nowMs;
  }
}

export function describeOp(op: OpRecord): string {
  const i = op.input;
  const inp =
    i.kind === 'put'
      ? `put(${i.value})`
      : i.kind === 'cas'
        ? `cas(${i.expect ?? '∅'}→${i.value})`
        : i.kind === 'putl'
          ? `putl(${i.value},${i.lease})`
          : i.kind === 'grant' || i.kind === 'revoke'
            ? `${i.kind}(${i.lease})`
            : `${i.kind}()`;
  const o = op.output;
  let out = op.status === 'ok' ? '' : `${op.status}${op.error ? `:${op.error}` : ''}`;
  if (o) {
    if (o.kind === 'put' || o.kind === 'putl') out = `prev=${o.prev ?? '∅'}`;
    else if (o.kind === 'get') out = `=${o.value ?? '∅'}@${o.modRevision}`;
    else if (o.kind === 'del') out = `deleted=${o.deleted}`;
    else if (o.kind === 'cas') out = `${o.succeeded ? 'ok' : 'no'} cur=${o.current ?? '∅'}`;
    else out = o.kind;
    if (op.revision !== undefined) out += ` rev=${op.revision}`;
  }
  return `#${op.id} c${op.client}@m${op.node} ${op.key} ${inp} [${op.call},${op.ret ?? '∞'}] t=${op.callAt}..${op.retAt ?? '∞'} ${out}`;
}
