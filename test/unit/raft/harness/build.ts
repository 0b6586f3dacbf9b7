/** Small builders for tests: logs from term lists, messages to inject. */
import { EntryType, type Entry } from '../../../../server/raft/log-types.js';

/** Entries 1..n whose terms are `terms`; the data names term and index so equal slots are equal. */
export function logOf(terms: readonly number[]): Entry[] {
  return terms.map((t, i) => ({
    term: t,
    index: i + 1,
    type: EntryType.ENTRY_NORMAL,
    data: Buffer.from(`t${t}i${i + 1}`),
  }));
}

export const entry = (term: number, index: number, data = `t${term}i${index}`): Entry => ({
  term,
  index,
  type: EntryType.ENTRY_NORMAL,
  data: Buffer.from(data),
});

export const ids = (...xs: number[]): bigint[] => xs.map((x) => BigInt(x));
