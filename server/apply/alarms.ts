/**
 * The set of raised alarms (NOSPACE, CORRUPT) per member. Changed only by applying
 * Alarm requests; persisted in the `alarm` bucket as one key per (member, alarm).
 */
import { Bucket, type BackendOp } from '../storage/backend.js';
import type { AlarmEntry } from './ports.js';

function keyOf(e: AlarmEntry): Buffer {
  const b = Buffer.alloc(9);
  b.writeBigUInt64BE(e.memberID, 0);
  b.writeUInt8(e.alarm, 8);
  return b;
}

export class AlarmSet {
  readonly #entries = new Map<string, AlarmEntry>();

  static restore(records: Iterable<Buffer>): AlarmSet {
    const set = new AlarmSet();
    for (const k of records) set.#add({ memberID: k.readBigUInt64BE(0), alarm: k.readUInt8(8) });
    return set;
  }

  /** Replaces every alarm with the stored `records` (after a snapshot install). */
  replace(records: Iterable<Buffer>): void {
    this.#entries.clear();
    for (const k of records) this.#add({ memberID: k.readBigUInt64BE(0), alarm: k.readUInt8(8) });
  }

  #add(e: AlarmEntry): void {
    this.#entries.set(keyOf(e).toString('hex'), e);
  }

  /** Raises an alarm; returns the persisting op, or undefined when it was already raised. */
  activate(e: AlarmEntry): BackendOp | undefined {
    const k = keyOf(e);
    if (this.#entries.has(k.toString('hex'))) return undefined;
    this.#add(e);
    return { type: 'put', bucket: Bucket.Alarm, key: k, value: Buffer.alloc(0) };
  }

  deactivate(e: AlarmEntry): BackendOp | undefined {
    const k = keyOf(e);
    if (!this.#entries.delete(k.toString('hex'))) return undefined;
    return { type: 'del', bucket: Bucket.Alarm, key: k };
  }

  has(alarm: number): boolean {
    for (const e of this.#entries.values()) if (e.alarm === alarm) return true;
    return false;
  }

  /** Alarms sorted by member then type; `alarm` 0 (NONE) matches every type. */
  list(alarm = 0): AlarmEntry[] {
    return [...this.#entries.values()]
      .filter((e) => alarm === 0 || e.alarm === alarm)
      .sort((a, b) => (a.memberID < b.memberID ? -1 : a.memberID > b.memberID ? 1 : a.alarm - b.alarm));
  }
}
