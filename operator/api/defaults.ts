/**
 * Spec defaults, as the API server applies them from the CRD schema: the `default`s written in
 * schema-spec.ts (size 3, image kvstore/kvstore, storage.size 1Gi, options {}, upgrade: v2 wait
 * 120 s above 50 MB, member health timeout 300 s, snapshot volume `snapshots` keeping 3; paused
 * false), applied to absent fields only, nested objects included. Also turns the int-or-string
 * fields (storage.size, options.autoCompactionRetention) into strings, so later code sees the
 * types of types.ts. Pure: the input is never modified.
 */
import { Value } from 'typebox/value';
import { KvstoreClusterSpecSchema } from './schema.js';
import type { KvstoreCluster, KvstoreClusterInput } from './types.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Integer → its decimal text, in place, for the int-or-string field `key` of `obj`. */
function intToText(obj: unknown, key: string): void {
  if (isObject(obj) && typeof obj[key] === 'number') obj[key] = String(obj[key]);
}

/**
 * Defaults of a spec of unknown shape (a manifest not yet validated). Returns a new value;
 * anything that is not an object is returned as it is (validation reports it).
 */
export function defaultSpec(spec: unknown): unknown {
  if (!isObject(spec)) return spec;
  const out = Value.Default(KvstoreClusterSpecSchema, structuredClone(spec));
  if (isObject(out)) {
    intToText(out['storage'], 'size');
    intToText(out['options'], 'autoCompactionRetention');
  }
  return out;
}

/**
 * The cluster with every absent spec field set to its default. The result is typed as a
 * defaulted cluster; whether the values are valid is validateCluster()'s question (parseCluster()
 * does both).
 */
export function withDefaults(cluster: KvstoreClusterInput): KvstoreCluster {
  return { ...cluster, spec: defaultSpec(cluster.spec) as KvstoreCluster['spec'] };
}
