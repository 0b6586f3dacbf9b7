/**
 * Applied state identical across members: running members that have applied the same log
 * index must hold the same state. Compared, each reported on its own:
 * - v3: revision, live keys with their create/mod revisions and versions, and the hash of
 *   all MVCC records (MvccStore.hashKV);
 * - with `withBuckets`: every other backend bucket but `meta` (lease, alarm, members,
 *   cluster, …), each on its own. Flushes write them, some time after the apply, so they are
 *   compared only among members whose backend holds everything up to the applied index (its
 *   consistent index is that index and no backend write is in flight);
 * - the v2 key space (the in-memory v2 store the v2 API reads and writes);
 * - the cluster version.
 * A member in the middle of installing a snapshot (its store already ahead of its applied
 * index) is left out.
 */
import { rangeAll } from '../../../server/apply/range-params.js';
import { Bucket } from '../../../server/storage/backend.js';
import { SimBackend } from '../world/sim-backend.js';
import type { Incarnation } from '../world/sim-node.js';

interface MemberState {
  readonly id: bigint;
  /** Whether the backend buckets were read (the backend is flushed up to the applied index). */
  readonly flushed: boolean;
  readonly v3: string;
  readonly buckets: ReadonlyMap<string, string>;
  readonly v2: string;
  readonly clusterVersion: string;
}

const backendFlushed = (inc: Incarnation, index: number): boolean =>
  inc.store.consistentIndex === BigInt(index) && !(inc.backend instanceof SimBackend && inc.backend.writesInFlight > 0);

async function stateOf(id: bigint, inc: Incarnation, withBuckets: boolean): Promise<MemberState> {
  const all = await inc.store.range(rangeAll(Buffer.from([0]), Buffer.from([0])));
  if (!all.ok) throw new Error(`m${id}: range failed: ${all.error.kind}`);
  const dump = all.value.kvs.map((kv) => `${kv.key.toString()}=${kv.value.toString()}@${kv.createRevision}/${kv.modRevision}/${kv.version}`).join(',');
  const kv = await inc.store.hashKV(0n);
  if (!kv.ok) throw new Error(`m${id}: hashKV failed: ${kv.error.kind}`);
  const buckets = new Map<string, string>();
  const flushed = withBuckets && backendFlushed(inc, inc.member.appliedIndex);
  if (flushed) {
    for (const bucket of Object.values(Bucket)) {
      if (bucket === Bucket.Key || bucket === Bucket.Meta) continue;
      const records: string[] = [];
      for await (const [k, v] of inc.backend.iterate(bucket)) records.push(`${k.toString('hex')}=${v.toString('latin1')}`);
      buckets.set(bucket, records.join(','));
    }
  }
  return {
    id,
    flushed,
    v3: `rev=${inc.store.currentRevision} [${dump}] hash ${kv.value.hash}`,
    buckets,
    v2: JSON.stringify(inc.v2.toJSON()),
    clusterVersion: inc.clusterVersion.current ?? 'none',
  };
}

export async function compareStates(members: ReadonlyMap<bigint, Incarnation>, withBuckets: boolean): Promise<string[]> {
  const byIndex = new Map<number, MemberState[]>();
  for (const [id, inc] of members) {
    if (!inc.started) continue;
    const index = inc.member.appliedIndex;
    if (inc.store.consistentIndex > index) continue;
    const state = await stateOf(id, inc, withBuckets);
    if (inc.member.appliedIndex !== index || !inc.life.alive) continue;
    byIndex.set(index, [...(byIndex.get(index) ?? []), state]);
  }
  const problems: string[] = [];
  for (const [index, group] of byIndex) {
    const a = group[0]!;
    for (const b of group.slice(1)) {
      if (a.v3 !== b.v3) problems.push(`applied state differs at index ${index}: m${a.id} ${a.v3}; m${b.id} ${b.v3}`);
      if (a.flushed && b.flushed) for (const [bucket, records] of a.buckets) {
        const other = b.buckets.get(bucket);
        if (other !== records) problems.push(`backend bucket ${bucket} differs at index ${index}: m${a.id} ${records.slice(0, 400)}; m${b.id} ${other?.slice(0, 400)}`);
      }
      if (a.v2 !== b.v2) problems.push(`v2 key space differs at index ${index}: m${a.id} ${a.v2}; m${b.id} ${b.v2}`);
      if (a.clusterVersion !== b.clusterVersion) problems.push(`cluster version differs at index ${index}: m${a.id} ${a.clusterVersion}; m${b.id} ${b.clusterVersion}`);
    }
  }
  return problems;
}
