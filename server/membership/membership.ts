/**
 * The cluster's member list as a replicated state machine: changed only by applying
 * committed entries (conf changes, peer-URL updates, published attributes), so every
 * member holds the same list. Persisted in the `members` / `members_removed` buckets
 * (key: member id, 8 bytes big-endian; value: JSON of the record).
 *
 * A member added at runtime has no name and no client URLs until it starts and publishes
 * its attributes (clients show it as "unstarted").
 */
import { Bucket, type BackendOp } from '../storage/backend.js';

export interface MemberRecord {
  readonly id: bigint;
  readonly name: string;
  readonly peerURLs: readonly string[];
  readonly clientURLs: readonly string[];
  readonly isLearner: boolean;
}

interface StoredMember {
  readonly id: string;
  readonly name?: string;
  readonly peerURLs: readonly string[];
  readonly clientURLs?: readonly string[];
  readonly isLearner?: boolean;
}

const idKey = (id: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(id);
  return b;
};

export function encodeMember(m: MemberRecord): Buffer {
  const s: StoredMember = { id: m.id.toString(16), name: m.name, peerURLs: m.peerURLs, clientURLs: m.clientURLs, isLearner: m.isLearner };
  return Buffer.from(JSON.stringify(s));
}

export function decodeMember(b: Buffer): MemberRecord {
  const s = JSON.parse(b.toString('utf8')) as StoredMember;
  return { id: BigInt('0x' + s.id), name: s.name ?? '', peerURLs: [...s.peerURLs], clientURLs: [...(s.clientURLs ?? [])], isLearner: s.isLearner ?? false };
}

export class Membership {
  readonly #members = new Map<bigint, MemberRecord>();
  readonly #removed = new Set<bigint>();
  #generation = 0;

  static restore(members: Iterable<MemberRecord>, removed: Iterable<bigint>): Membership {
    const m = new Membership();
    for (const r of members) m.#members.set(r.id, r);
    for (const id of removed) m.#removed.add(id);
    return m;
  }

  /** Replaces the whole list (after a snapshot install). */
  replace(members: Iterable<MemberRecord>, removed: Iterable<bigint>): void {
    this.#generation++;
    this.#members.clear();
    this.#removed.clear();
    for (const r of members) this.#members.set(r.id, r);
    for (const id of removed) this.#removed.add(id);
  }

  /**
   * Grows by one on every change of the list (add, remove, re-address, attributes, replace), so a
   * follower of the list (the peer set) can skip its reconcile when nothing changed.
   */
  get generation(): number {
    return this.#generation;
  }

  get(id: bigint): MemberRecord | undefined {
    return this.#members.get(id);
  }

  isRemoved(id: bigint): boolean {
    return this.#removed.has(id);
  }

  /** Members sorted by id ascending. */
  list(): MemberRecord[] {
    return [...this.#members.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  voters(): MemberRecord[] {
    return this.list().filter((m) => !m.isLearner);
  }

  learners(): MemberRecord[] {
    return this.list().filter((m) => m.isLearner);
  }

  /** The member using any of `urls` as a peer URL, if one does. */
  byPeerUrl(urls: readonly string[]): MemberRecord | undefined {
    return this.list().find((m) => m.peerURLs.some((u) => urls.includes(u)));
  }

  /** Adds (or, for an existing learner given isLearner=false, promotes) a member; returns persist ops. */
  add(r: MemberRecord): BackendOp[] {
    const existing = this.#members.get(r.id);
    const next = existing ? { ...existing, isLearner: existing.isLearner && r.isLearner } : r;
    return this.#put(next);
  }

  remove(id: bigint): BackendOp[] {
    this.#generation++;
    this.#members.delete(id);
    this.#removed.add(id);
    return [
      { type: 'del', bucket: Bucket.Members, key: idKey(id) },
      { type: 'put', bucket: Bucket.MembersRemoved, key: idKey(id), value: Buffer.from('removed') },
    ];
  }

  updatePeerUrls(id: bigint, peerURLs: readonly string[]): BackendOp[] {
    const m = this.#members.get(id);
    return m ? this.#put({ ...m, peerURLs: [...peerURLs] }) : [];
  }

  setAttributes(id: bigint, name: string, clientURLs: readonly string[]): BackendOp[] {
    const m = this.#members.get(id);
    return m ? this.#put({ ...m, name, clientURLs: [...clientURLs] }) : [];
  }

  /** Persist ops for every member (bootstrap). */
  allOps(): BackendOp[] {
    return this.list().map((m) => ({ type: 'put', bucket: Bucket.Members, key: idKey(m.id), value: encodeMember(m) }));
  }

  #put(m: MemberRecord): BackendOp[] {
    this.#generation++;
    this.#members.set(m.id, m);
    return [{ type: 'put', bucket: Bucket.Members, key: idKey(m.id), value: encodeMember(m) }];
  }
}
