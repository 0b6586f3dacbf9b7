/**
 * A simulated client: issues single-key operations to one member at a time and records each
 * in the world's history. Writes go through `member.propose`; reads are linearizable:
 * `member.readBarrier()` then a range on that member's store, as the KV service does.
 *
 * An answer counts only if the incarnation that was asked is still alive when it arrives
 * (a crashed process answers nobody). A client stops waiting after `timeoutMs`; the op is
 * then 'unknown' (a write may still take effect later).
 */
import {
  Compare_CompareResult,
  Compare_CompareTarget,
  type DeleteRangeResponse,
  type LeaseGrantResponse,
  type LeaseRevokeResponse,
  type PutResponse,
  type TxnRequest,
  type TxnResponse,
} from '../../../proto/gen/etcd/rpc.js';
import type { Applied } from '../../../server/apply/applier.js';
import { rangeAll } from '../../../server/apply/range-params.js';
import type { Result } from '../../../server/errors/domain-error.js';
import { encodeV2Request } from '../../../server/v2store/request-codec.js';
import { V2Method } from '../../../server/v2store/types.js';
import { describeOp, type KvInput, type KvOutput, type OpRecord } from './history.js';
import type { Incarnation } from './sim-node.js';
import type { World } from './world.js';

type Answer =
  | { readonly ok: true; readonly output: KvOutput; readonly revision: bigint | undefined }
  | { readonly ok: false; readonly definite: boolean; readonly error: string };

/** Leases never expire during a run (nothing acts on expiry in the simulation anyway). */
const LEASE_TTL_SECONDS = 3600n;

const EMPTY = Buffer.alloc(0);

function fromApplied<T>(r: Result<Applied>, read: (response: T) => { output: KvOutput; revision: bigint }): Answer {
  if (!r.ok && r.error.kind === 'LeaseNotFound') return { ok: true, output: { kind: 'lease-missing' }, revision: undefined };
  if (!r.ok) return { ok: false, definite: r.error.kind === 'NoLeader', error: r.error.kind };
  const { output, revision } = read(r.value.response as T);
  return { ok: true, output, revision };
}

const str = (b: Buffer | undefined): string | null => (b === undefined ? null : b.toString());

async function execute(inc: Incarnation, key: string, input: KvInput): Promise<Answer> {
  const k = Buffer.from(key);
  const m = inc.member;
  switch (input.kind) {
    case 'put': {
      const r = await m.propose({ $case: 'put', value: { key: k, value: Buffer.from(input.value), lease: 0n, prevKv: true, ignoreValue: false, ignoreLease: false } });
      return fromApplied<PutResponse>(r, (p) => ({ output: { kind: 'put', prev: str(p.prevKv?.value) }, revision: p.header!.revision }));
    }
    case 'del': {
      const r = await m.propose({ $case: 'deleteRange', value: { key: k, rangeEnd: EMPTY, prevKv: false } });
      return fromApplied<DeleteRangeResponse>(r, (p) => ({ output: { kind: 'del', deleted: Number(p.deleted) }, revision: p.header!.revision }));
    }
    case 'cas': {
      const txn: TxnRequest = {
        compare: [
          input.expect === null
            ? { result: Compare_CompareResult.EQUAL, target: Compare_CompareTarget.VERSION, key: k, targetUnion: { $case: 'version', value: 0n }, rangeEnd: EMPTY }
            : { result: Compare_CompareResult.EQUAL, target: Compare_CompareTarget.VALUE, key: k, targetUnion: { $case: 'value', value: Buffer.from(input.expect) }, rangeEnd: EMPTY },
        ],
        success: [{ request: { $case: 'requestPut', value: { key: k, value: Buffer.from(input.value), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false } } }],
        failure: [{ request: { $case: 'requestRange', value: { ...rangeAll(k, EMPTY), serializable: false } } }],
      };
      const r = await m.propose({ $case: 'txn', value: txn });
      return fromApplied<TxnResponse>(r, (p) => {
        const rr = p.responses[0]?.response;
        const current = !p.succeeded && rr?.$case === 'responseRange' ? str(rr.value.kvs[0]?.value) : null;
        return { output: { kind: 'cas', succeeded: p.succeeded, current }, revision: p.header!.revision };
      });
    }
    case 'grant': {
      const r = await m.propose({ $case: 'leaseGrant', value: { ID: BigInt(input.lease), TTL: LEASE_TTL_SECONDS } });
      return fromApplied<LeaseGrantResponse>(r, (p) => ({ output: { kind: 'grant' }, revision: p.header!.revision }));
    }
    case 'putl': {
      const r = await m.propose({ $case: 'put', value: { key: k, value: Buffer.from(input.value), lease: BigInt(input.lease), prevKv: true, ignoreValue: false, ignoreLease: false } });
      return fromApplied<PutResponse>(r, (p) => ({ output: { kind: 'putl', prev: str(p.prevKv?.value) }, revision: p.header!.revision }));
    }
    case 'revoke': {
      const r = await m.propose({ $case: 'leaseRevoke', value: { ID: BigInt(input.lease) } });
      return fromApplied<LeaseRevokeResponse>(r, (p) => ({ output: { kind: 'revoke' }, revision: p.header!.revision }));
    }
    case 'get': {
      const b = await m.readBarrier();
      if (!b.ok) return { ok: false, definite: true, error: b.error.kind };
      const r = await inc.store.range(rangeAll(k, EMPTY));
      if (!r.ok) return { ok: false, definite: true, error: r.error.kind };
      const kv = r.value.kvs[0];
      return { ok: true, output: { kind: 'get', value: str(kv?.value), modRevision: kv?.modRevision ?? 0n }, revision: inc.store.currentRevision };
    }
  }
}

/**
 * A v2 write (PUT `path` = `value`) through the log, as the v2 HTTP API makes it. Its
 * outcome is only traced: v2 state is checked by comparing members' v2 stores.
 */
export async function v2Put(w: World, node: bigint, path: string, value: string): Promise<void> {
  const inc = w.node(node).running;
  if (!inc?.started) return;
  w.log(`v2 put ${path}=${value} via m${node}`);
  const r = await inc.member.propose({ $case: 'v2Request', value: Buffer.from(encodeV2Request({ method: V2Method.Put, path, value })) });
  w.log(`v2 put ${path}=${value}: ${r.ok ? 'applied' : r.error.kind}`);
}

export class KvClient {
  readonly id: number;
  readonly #world: World;
  readonly #timeoutMs: number;

  constructor(world: World, id: number, timeoutMs: number) {
    this.#world = world;
    this.id = id;
    this.#timeoutMs = timeoutMs;
  }

  /** Runs one operation on member `node`; undefined if that member is not serving. */
  async invoke(node: bigint, key: string, input: KvInput): Promise<OpRecord | undefined> {
    const w = this.#world;
    const inc = w.node(node).running;
    if (!inc?.started) return undefined;
    const op = w.history.invoke(this.id, node, key, input, w.now);
    w.log(`c${this.id} call ${describeOp(op)}`);
    const timeout = w.sleep(this.#timeoutMs).then(() => 'timeout' as const);
    const crashed = inc.died.then(() => 'crashed' as const);
    const answer = await Promise.race([execute(inc, key, input), timeout, crashed]);
    if (answer === 'timeout') w.history.unknown(op, 'client timeout', w.now);
    else if (answer === 'crashed' || !inc.life.alive) w.history.unknown(op, 'member crashed', w.now);
    else if (answer.ok) {
      w.history.ok(op, answer.output, answer.revision, w.now);
      w.answered(op);
    }
    else if (answer.definite || input.kind === 'get') w.history.failed(op, answer.error, w.now);
    else w.history.unknown(op, answer.error, w.now);
    w.log(`c${this.id} done ${describeOp(op)}`);
    return op;
  }
}
