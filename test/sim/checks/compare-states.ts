/**
 * Applied state identical across members: running members that have applied the same log
 * index must hold the same store — same revision, same live keys with the same create/mod
 * revisions and versions, and the same store hash (all MVCC records; with `withBuckets`
 * also the lease, alarm and member buckets). A member in the middle of installing a
 * snapshot (its store already ahead of its applied index) is left out.
 */
import { rangeAll } from '../../../server/apply/range-params.js';
import type { Incarnation } from '../world/sim-node.js';

export async function compareStates(members: ReadonlyMap<bigint, Incarnation>, withBuckets: boolean): Promise<string[]> {
  const byIndex = new Map<bigint, Array<{ id: bigint; hash: number; dump: string }>>();
  for (const [id, inc] of members) {
    if (!inc.started) continue;
    const index = inc.member.appliedIndex;
    if (inc.store.consistentIndex > index) continue;
    const all = await inc.store.range(rangeAll(Buffer.from([0]), Buffer.from([0])));
    if (!all.ok) throw new Error(`m${id}: range failed: ${all.error.kind}`);
    const dump = all.value.kvs.map((kv) => `${kv.key.toString()}=${kv.value.toString()}@${kv.createRevision}/${kv.modRevision}/${kv.version}`).join(',');
    let hash: number;
    if (withBuckets) hash = await inc.store.hash();
    else {
      const kv = await inc.store.hashKV(0n);
      if (!kv.ok) throw new Error(`m${id}: hashKV failed: ${kv.error.kind}`);
      hash = kv.value.hash;
    }
    if (inc.member.appliedIndex !== index || !inc.life.alive) continue;
    byIndex.set(index, [...(byIndex.get(index) ?? []), { id, hash, dump: `rev=${inc.store.currentRevision} ${dump}` }]);
  }
  const problems: string[] = [];
  for (const [index, group] of byIndex) {
    const first = group[0]!;
    for (const other of group.slice(1)) {
      if (other.hash !== first.hash || other.dump !== first.dump) {
        problems.push(`applied state differs at index ${index}: m${first.id} [${first.dump}] hash ${first.hash}, m${other.id} [${other.dump}] hash ${other.hash}`);
      }
    }
  }
  return problems;
}
