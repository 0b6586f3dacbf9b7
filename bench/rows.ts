/**
 * The benchmark rows, as one table: which load, how many closed-loop clients over how many
 * connections, and which deployments (single member, cluster) run the row by default.
 * Row ids are what `--rows` accepts; adding a row is adding an entry to ROW_TABLE.
 */
import type { LoadKindName } from './load/protocol.js';

export const ROW_IDS = ['put-1', 'put-100', 'put-500', 'range-lin', 'range-ser'] as const;
export type RowId = (typeof ROW_IDS)[number];

/** `single`: `--members 1`; `cluster`: `--members` > 1. */
export const TOPOLOGIES = ['single', 'cluster'] as const;
export type Topology = (typeof TOPOLOGIES)[number];

export interface Row {
  readonly id: RowId;
  readonly title: string;
  readonly kind: LoadKindName;
  readonly clients: number;
  readonly connections: number;
  readonly serializable: boolean;
}

interface RowSpec {
  readonly kind: LoadKindName;
  /** Title without the client counts, e.g. 'put' or 'linearizable range'. */
  readonly what: string;
  readonly clients: number;
  readonly connections: number;
  readonly serializable: boolean;
  /** `--clients` / `--connections` replace this row's counts (the "many clients" rows). */
  readonly sizedByFlags: boolean;
  /** Deployments that run this row when `--rows` is not given. */
  readonly defaultIn: readonly Topology[];
}

const BOTH: readonly Topology[] = TOPOLOGIES;

export const ROW_TABLE: Readonly<Record<RowId, RowSpec>> = {
  'put-1': { kind: 'put', what: 'put', clients: 1, connections: 1, serializable: false, sizedByFlags: false, defaultIn: BOTH },
  'put-100': { kind: 'put', what: 'put', clients: 100, connections: 10, serializable: false, sizedByFlags: true, defaultIn: BOTH },
  'put-500': { kind: 'put', what: 'put', clients: 500, connections: 50, serializable: false, sizedByFlags: false, defaultIn: ['cluster'] },
  'range-lin': {
    kind: 'range', what: 'linearizable range', clients: 100, connections: 10, serializable: false, sizedByFlags: true, defaultIn: BOTH,
  },
  'range-ser': {
    kind: 'range', what: 'serializable range', clients: 100, connections: 10, serializable: true, sizedByFlags: true, defaultIn: BOTH,
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
  const title = clients === 1 && connections === 1
    ? `${spec.what}, 1 client`
    : `${spec.what}, ${clients} clients / ${connections} conns`;
  return { id, title, kind: spec.kind, clients, connections, serializable: spec.serializable };
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
