/**
 * Membership changes, one member at a time, and their encoding in ENTRY_CONF_CHANGE entries.
 *
 * Kinds: AddNode adds a voter, or promotes an existing learner; AddLearnerNode adds a learner
 * (ignored when the node is already a voter: demotion is not supported); RemoveNode removes a
 * voter or learner. A change takes effect when the application applies its entry and calls
 * `applyConfChange`, on every member alike.
 *
 * Entry data layout (big-endian): byte 0 = format version (1); byte 1 = kind (0 AddNode,
 * 1 RemoveNode, 2 AddLearnerNode); bytes 2..9 = node id (uint64); bytes 10.. = context (opaque
 * to the core, e.g. the new member's peer URLs).
 */
export const ConfChangeType = {
  AddNode: 'AddNode',
  RemoveNode: 'RemoveNode',
  AddLearnerNode: 'AddLearnerNode',
} as const;
export type ConfChangeType = (typeof ConfChangeType)[keyof typeof ConfChangeType];

export interface ConfChange {
  readonly type: ConfChangeType;
  readonly nodeId: bigint;
  readonly context: Buffer;
}

const CODES: readonly ConfChangeType[] = [ConfChangeType.AddNode, ConfChangeType.RemoveNode, ConfChangeType.AddLearnerNode];
const VERSION = 1;
const HEADER = 10;

export function encodeConfChange(cc: ConfChange): Buffer {
  const out = Buffer.alloc(HEADER + cc.context.length);
  out[0] = VERSION;
  out[1] = CODES.indexOf(cc.type);
  out.writeBigUInt64BE(BigInt.asUintN(64, cc.nodeId), 2);
  cc.context.copy(out, HEADER);
  return out;
}

/** Decodes entry data written by `encodeConfChange`; undefined when it is not such data. */
export function decodeConfChange(data: Buffer): ConfChange | undefined {
  if (data.length < HEADER || data[0] !== VERSION) return undefined;
  const type = CODES[data[1]!];
  if (type === undefined) return undefined;
  return { type, nodeId: data.readBigUInt64BE(2), context: Buffer.from(data.subarray(HEADER)) };
}
