/**
 * The kvload command line for one load plan (the Go generator in bench/go/kvload; its flags are
 * shaped like etcd's `benchmark` tool). Pure.
 */
import { RANGE_KEY, type LoadPlan, type LoadSpec } from '../load-spec.js';

/** Key size in bytes: 8 decimal digits, enough for 10^8 distinct keys (etcd benchmark's default size). */
export const KEY_SIZE = 8;
/** Watched puts carry an 8-byte send stamp at the start of the value. */
const STAMP_SIZE = 8;

function loadArgs(load: LoadSpec, valueSize: number): string[] {
  const keyArgs = (keySpace: number): string[] => ['--key-size', String(KEY_SIZE), '--key-space-size', String(keySpace)];
  switch (load.kind) {
    case 'put':
      return ['put', ...keyArgs(load.keySpace), '--val-size', String(load.valueBytes ?? valueSize), ...(load.sequentialKeys ? ['--sequential-keys'] : [])];
    case 'range':
      return ['range', RANGE_KEY, '--consistency', load.serializable ? 's' : 'l'];
    case 'txn-put':
      return ['txn-put', ...keyArgs(load.keySpace), '--val-size', String(valueSize), '--txn-ops', String(load.txnOps)];
    case 'watch':
      return [
        'watch',
        '--streams', String(load.streams),
        '--watch-per-stream', String(load.watchersPerStream),
        ...keyArgs(load.keySpace),
        '--val-size', String(Math.max(valueSize, STAMP_SIZE)),
        '--put-rate', String(load.putRate),
      ];
  }
}

export function kvloadArgs(plan: LoadPlan): string[] {
  if (plan.targets.length === 0) throw new Error('a load plan needs at least one target');
  return [
    '--endpoints', plan.targets.join(','),
    '--conns', String(plan.connections),
    '--clients', String(plan.clients),
    '--warmup', `${Math.round(plan.warmupMs)}ms`,
    '--duration', `${Math.max(1, Math.round(plan.measureMs))}ms`,
    ...loadArgs(plan.load, plan.valueSize),
  ];
}
