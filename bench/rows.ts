/**
 * The benchmark rows: which load, how many closed-loop clients, over how many connections.
 * Row ids are what `--rows` accepts.
 */
import type { LoadKindName } from './load/protocol.js';

export interface Row {
  readonly id: RowId;
  readonly title: string;
  readonly kind: LoadKindName;
  readonly clients: number;
  readonly connections: number;
  readonly serializable: boolean;
}

export const ROW_IDS = ['put-1', 'put-100', 'range-lin', 'range-ser'] as const;
export type RowId = (typeof ROW_IDS)[number];

/** `many` / `conns`: client and connection counts of the multi-client rows (default 100 over 10). */
export function rows(many: number, conns: number): Record<RowId, Row> {
  const m = `${many} clients / ${conns} conns`;
  return {
    'put-1': { id: 'put-1', title: 'put, 1 client', kind: 'put', clients: 1, connections: 1, serializable: false },
    'put-100': { id: 'put-100', title: `put, ${m}`, kind: 'put', clients: many, connections: conns, serializable: false },
    'range-lin': {
      id: 'range-lin',
      title: `linearizable range, ${m}`,
      kind: 'range',
      clients: many,
      connections: conns,
      serializable: false,
    },
    'range-ser': {
      id: 'range-ser',
      title: `serializable range, ${m}`,
      kind: 'range',
      clients: many,
      connections: conns,
      serializable: true,
    },
  };
}

export function isRowId(s: string): s is RowId {
  return (ROW_IDS as readonly string[]).includes(s);
}
