/**
 * The benchmark rows, as one table: which load, how many closed-loop clients over how many
 * connections, and which deployments (single member, cluster) run the row by default.
 * Row ids are what `--rows` accepts; adding a row is adding an entry to ROW_TABLE. Pure.
 */
import type { LoadSpec } from './load-spec.js';

export const ROW_IDS = [
  'put-1-cold', 'put-1', 'put-100', 'put-100-keys', 'put-500', 'put-8k', 'put-100k', 'put-1m', 'range-lin', 'range-ser', 'txn-put', 'watch-10k',
] as const;
export type RowId = (typeof ROW_IDS)[number];

/** `single`: `--members 1`; `cluster`: `--members` > 1. */
export const TOPOLOGIES = ['single', 'cluster'] as const;
export type Topology = (typeof TOPOLOGIES)[number];

/** What the throughput column counts: completed requests, or delivered watch events. */
export type RowUnit = 'ops' | 'events';

export interface Row {
  readonly id: RowId;
  readonly title: string;
  readonly load: LoadSpec;
  readonly unit: RowUnit;
  readonly clients: number;
  readonly connections: number;
  /** Measured on deployments started for this row alone, from their first request (no warm-up of any kind). */
  readonly cold: boolean;
}

interface RowSpec {
  /** Title without the client counts, e.g. 'put' or 'linearizable range'. */
  readonly what: string;
  /** Appended after the client counts, e.g. 'one key'. */
  readonly detail: string;
  readonly load: LoadSpec;
  readonly clients: number;
  readonly connections: number;
  /** `--clients` / `--connections` replace this row's counts (the "100 clients" request rows). */
  readonly sizedByFlags: boolean;
  /** Deployments that run this row when `--rows` is not given. */
  readonly defaultIn: readonly Topology[];
  /** See Row.cold. */
  readonly cold?: boolean;
}

const BOTH: readonly Topology[] = TOPOLOGIES;
const ONE_KEY: LoadSpec = { kind: 'put', keySpace: 1, sequentialKeys: false };
const DISTINCT_KEYS: LoadSpec = { kind: 'put', keySpace: 100_000, sequentialKeys: true };

/** Large values go to a small key space: each row rewrites the same keys (the data set stays bounded). */
const largeValues = (valueBytes: number): LoadSpec => ({ kind: 'put', keySpace: 1000, sequentialKeys: true, valueBytes });

export const ROW_TABLE: Readonly<Record<RowId, RowSpec>> = {
  'put-1-cold': {
    what: 'put, cold start', detail: 'one key, the first seconds of a just-started deployment', load: ONE_KEY,
    clients: 1, connections: 1, sizedByFlags: false, defaultIn: BOTH, cold: true,
  },
  'put-1': { what: 'put', detail: 'one key', load: ONE_KEY, clients: 1, connections: 1, sizedByFlags: false, defaultIn: BOTH },
  'put-100': { what: 'put', detail: 'one key', load: ONE_KEY, clients: 100, connections: 10, sizedByFlags: true, defaultIn: BOTH },
  'put-100-keys': {
    what: 'put', detail: '100 k distinct keys', load: DISTINCT_KEYS, clients: 100, connections: 10, sizedByFlags: true, defaultIn: BOTH,
  },
  'put-500': {
    what: 'put', detail: '100 k distinct keys', load: DISTINCT_KEYS, clients: 500, connections: 50, sizedByFlags: false, defaultIn: ['cluster'],
  },
  'put-8k': {
    what: 'put 8 KiB values', detail: '1 000 keys', load: largeValues(8 * 1024), clients: 100, connections: 10, sizedByFlags: false, defaultIn: BOTH,
  },
  'put-100k': {
    what: 'put 100 KiB values', detail: '1 000 keys', load: largeValues(100 * 1024), clients: 16, connections: 4, sizedByFlags: false, defaultIn: BOTH,
  },
  'put-1m': {
    what: 'put 1 MiB values', detail: '1 000 keys', load: largeValues(1024 * 1024), clients: 4, connections: 2, sizedByFlags: false, defaultIn: BOTH,
  },
  'range-lin': {
    what: 'linearizable range', detail: 'one key', load: { kind: 'range', serializable: false },
    clients: 100, connections: 10, sizedByFlags: true, defaultIn: BOTH,
  },
  'range-ser': {
    what: 'serializable range', detail: 'one key', load: { kind: 'range', serializable: true },
    clients: 100, connections: 10, sizedByFlags: true, defaultIn: BOTH,
  },
  'txn-put': {
    what: 'txn-put (1 put per txn)', detail: '100 k keys', load: { kind: 'txn-put', keySpace: 100_000, txnOps: 1 },
    clients: 100, connections: 10, sizedByFlags: true, defaultIn: BOTH,
  },
  'watch-10k': {
    what: 'watch, 10 k watchers / 100 streams on 100 keys',
    detail: '200 puts/s (20 k events/s offered)',
    load: { kind: 'watch', streams: 100, watchersPerStream: 100, keySpace: 100, putRate: 200 },
    clients: 50, connections: 10, sizedByFlags: false, defaultIn: BOTH,
  },
};

/** Overrides from `--clients` / `--connections`; absent fields keep the table's counts. */
export interface RowSizing {
  readonly clients?: number;
  readonly connections?: number;
}

function toRow(id: RowId, sizing: RowSizing): Row {
  const spec = ROW_TABLE[id];
  const clients = spec.sizedByFlags ? (sizing.clients ?? spec.clients) : spec.clients;
  const connections = spec.sizedByFlags ? (sizing.connections ?? spec.connections) : spec.connections;
  const who = spec.load.kind === 'watch'
    ? `${clients} put clients / ${connections} conns`
    : clients === 1 && connections === 1 ? '1 client' : `${clients} clients / ${connections} conns`;
  return {
    id,
    title: `${spec.what}, ${who}, ${spec.detail}`,
    load: spec.load,
    unit: spec.load.kind === 'watch' ? 'events' : 'ops',
    clients,
    connections,
    cold: spec.cold === true,
  };
}

export function isRowId(s: string): s is RowId {
  return (ROW_IDS as readonly string[]).includes(s);
}

/**
 * The rows to run, in table order for the default selection and in the given order otherwise.
 * `ids` undefined → the rows whose `defaultIn` contains `topology`. Throws on an unknown id.
 */
export function selectRows(ids: readonly string[] | undefined, topology: Topology, sizing: RowSizing): Row[] {
  const chosen = ids ?? ROW_IDS.filter((id) => ROW_TABLE[id].defaultIn.includes(topology));
  return chosen.map((id) => {
    if (!isRowId(id)) throw new Error(`unknown row ${id}; rows are ${ROW_IDS.join(', ')}`);
    return toRow(id, sizing);
  });
}

/** What kvstore should reach relative to etcd, per deployment; null: no stated goal. */
export interface Goal {
  /** kvstore throughput / etcd throughput must be at least this. */
  readonly minThroughputRatio: number;
  /** kvstore p99 / etcd p99 must be at most this. */
  readonly maxP99Ratio: number;
}

export const GOALS: Readonly<Record<Topology, Goal | null>> = {
  single: null,
  cluster: { minThroughputRatio: 0.5, maxP99Ratio: 2 },
};
