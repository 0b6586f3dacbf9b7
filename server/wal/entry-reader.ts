/**
 * Reads one encoded raft Entry (proto/kvstore/raft.proto) with the project's protobuf reader:
 * term and index as numbers (a value above 2^53 − 1 is refused), the payload as a view into the
 * bytes read — the caller copies it if it keeps it. Used for the log's records (log-replay.ts)
 * and for the entries of peer messages (member/message-codec.ts).
 */
import type { Entry } from '../raft/log-types.js';
import { ProtoReader } from './proto-reader.js';

const EMPTY = Buffer.alloc(0);

export function readEntry(r: ProtoReader): Entry {
  let term = 0;
  let index = 0;
  let type = 0;
  let data: Buffer = EMPTY;
  while (!r.done()) {
    const tag = r.number();
    switch (tag) {
      case 8 /* 1 term */:
        term = r.number();
        break;
      case 16 /* 2 index */:
        index = r.number();
        break;
      case 24 /* 3 type */:
        type = r.int32();
        break;
      case 34 /* 4 data, LEN */: {
        const f = r.lengthDelimited();
        data = r.buf.subarray(f.start, f.end);
        break;
      }
      default:
        r.skip(tag & 7);
    }
  }
  return { term, index, type, data };
}
