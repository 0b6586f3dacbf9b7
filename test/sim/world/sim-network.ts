/**
 * The simulated peer network. Each message is encoded with the real peer codec when sent
 * (so no object is shared between members) and decoded on delivery.
 *
 * Faults, all drawn from the network's own PRNG stream:
 * - delay: uniform in [minDelayMs, maxDelayMs]; per ordered pair messages stay FIFO unless
 * - reorder: with `reorderRate` a message ignores the FIFO order of its pair;
 * - drop: with `dropRate` a message is lost; dup: with `dupRate` it is delivered twice —
 *   except forwarded proposals (MsgProp) unless `duplicateProposals`: the peer transport
 *   writes each frame at most once, and a duplicated proposal is appended (and applied) twice;
 * - partitions: members in different groups, or a one-way cut a→b, cannot talk; a message
 *   is dropped if the pair is cut when it is sent OR when it would arrive. A send into a cut
 *   is reported to the sender as unreachable (as a failed dial would be).
 */
import { decodeMessage, encodeMessage } from '../../../server/member/message-codec.js';
import { MessageType, type Message } from '../../../server/raft/index.js';
import type { Prng } from './prng.js';
import type { VirtualScheduler } from './virtual-scheduler.js';

export interface NetworkConditions {
  readonly dropRate: number;
  readonly dupRate: number;
  readonly reorderRate: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
}

export const CALM: NetworkConditions = { dropRate: 0, dupRate: 0, reorderRate: 0, minDelayMs: 1, maxDelayMs: 5 };

export interface NetworkOptions {
  /** Let `dupRate` duplicate MsgProp too (a transport that may deliver a frame twice). */
  readonly duplicateProposals?: boolean;
}

export interface NetworkPorts {
  /** Hands a message to the running incarnation of `to` (false: nobody is listening). */
  readonly deliver: (to: bigint, m: Message) => boolean;
  /** Hands a snapshot message and its state image to `to` (false: nobody is listening). */
  readonly deliverSnapshot: (to: bigint, m: Message, image: Buffer) => boolean;
  readonly unreachable: (from: bigint, to: bigint) => void;
  /** A step of the network, for the trace. */
  readonly trace: (line: string) => void;
}

export interface NetworkStats {
  sent: number;
  delivered: number;
  dropped: number;
  duplicated: number;
  snapshots: number;
}

const pairKey = (a: bigint, b: bigint): string => `${a}>${b}`;

export function describeMessage(m: Message): string {
  const extra = m.entries.length > 0 ? ` n=${m.entries.length}` : '';
  return `${m.type} ${m.from}>${m.to} t=${m.term} i=${m.index} lt=${m.logTerm} c=${m.commit}${m.reject ? ' rej' : ''}${extra}`;
}

export class SimNetwork {
  readonly #sched: VirtualScheduler;
  readonly #rng: Prng;
  readonly #ports: NetworkPorts;
  #conditions: NetworkConditions = CALM;
  /** member → partition group; members in different groups are cut off. */
  #groups = new Map<bigint, number>();
  readonly #oneWay = new Set<string>();
  /** Per ordered pair: the latest delivery time scheduled (FIFO floor). */
  readonly #fifo = new Map<string, number>();
  readonly stats: NetworkStats = { sent: 0, delivered: 0, dropped: 0, duplicated: 0, snapshots: 0 };

  readonly #options: NetworkOptions;

  constructor(sched: VirtualScheduler, rng: Prng, ports: NetworkPorts, options: NetworkOptions = {}) {
    this.#sched = sched;
    this.#rng = rng;
    this.#ports = ports;
    this.#options = options;
  }

  get conditions(): NetworkConditions {
    return this.#conditions;
  }

  setConditions(c: NetworkConditions): void {
    this.#conditions = c;
  }

  /** Splits members into groups (members not listed form one more group together). */
  partition(groups: readonly (readonly bigint[])[]): void {
    this.#groups = new Map();
    groups.forEach((g, i) => g.forEach((id) => this.#groups.set(id, i + 1)));
  }

  cutOneWay(from: bigint, to: bigint): void {
    this.#oneWay.add(pairKey(from, to));
  }

  heal(): void {
    this.#groups = new Map();
    this.#oneWay.clear();
  }

  blocked(from: bigint, to: bigint): boolean {
    return (this.#groups.get(from) ?? 0) !== (this.#groups.get(to) ?? 0) || this.#oneWay.has(pairKey(from, to));
  }

  /** A short description of the current cuts, for the trace. */
  describeCuts(): string {
    const groups = new Map<number, bigint[]>();
    for (const [id, g] of this.#groups) groups.set(g, [...(groups.get(g) ?? []), id]);
    const parts = [...groups.values()].map((g) => `[${g.join(',')}]`);
    return [...parts, ...this.#oneWay].join(' ') || 'none';
  }

  send(m: Message): void {
    this.stats.sent++;
    if (this.blocked(m.from, m.to)) {
      this.stats.dropped++;
      this.#ports.unreachable(m.from, m.to);
      return;
    }
    const c = this.#conditions;
    if (this.#rng.chance(c.dropRate)) {
      this.stats.dropped++;
      return;
    }
    const frame = encodeMessage(m);
    const copies = this.#rng.chance(c.dupRate) && (m.type !== MessageType.MsgProp || this.#options.duplicateProposals === true) ? 2 : 1;
    if (copies === 2) this.stats.duplicated++;
    for (let i = 0; i < copies; i++) this.#schedule(m.from, m.to, frame);
  }

  #schedule(from: bigint, to: bigint, frame: Buffer): void {
    const c = this.#conditions;
    const now = this.#sched.now;
    let at = now + this.#rng.between(c.minDelayMs, c.maxDelayMs);
    const key = pairKey(from, to);
    if (!this.#rng.chance(c.reorderRate)) {
      at = Math.max(at, this.#fifo.get(key) ?? 0);
      this.#fifo.set(key, at);
    }
    this.#sched.at(at - now, () => this.#arrive(from, to, frame));
  }

  /**
   * Sends a snapshot message with its state image (one transfer: it takes longer than a
   * message, and fails as a whole if lost, cut or the receiver is down); resolves, after
   * the receiver's answer travelled back, whether it arrived.
   */
  sendSnapshot(m: Message, image: Buffer): Promise<boolean> {
    this.stats.snapshots++;
    const c = this.#conditions;
    const hop = (): number => this.#rng.between(c.minDelayMs, c.maxDelayMs);
    const frame = encodeMessage(m);
    const copy = Buffer.from(image);
    return new Promise((resolve) => {
      if (this.blocked(m.from, m.to) || this.#rng.chance(c.dropRate)) {
        this.#sched.at(hop(), () => resolve(false));
        return;
      }
      this.#sched.at(hop() + 5 + Math.ceil(image.length / 100_000), () => {
        const decoded = decodeMessage(frame);
        if (!decoded.ok) throw new Error(`sim network: undecodable snapshot frame ${m.from}>${m.to}`);
        const arrived = !this.blocked(m.from, m.to) && this.#ports.deliverSnapshot(m.to, decoded.value, copy);
        this.#ports.trace(`${arrived ? 'recv' : 'lost'} ${describeMessage(decoded.value)} snapshot`);
        this.#sched.at(hop(), () => resolve(arrived));
      });
    });
  }

  #arrive(from: bigint, to: bigint, frame: Buffer): void {
    const decoded = decodeMessage(frame);
    if (!decoded.ok) throw new Error(`sim network: undecodable frame ${from}>${to}`);
    const m = decoded.value;
    if (this.blocked(from, to)) {
      this.stats.dropped++;
      this.#ports.trace(`cut ${describeMessage(m)}`);
      return;
    }
    if (this.#ports.deliver(to, m)) {
      this.stats.delivered++;
      this.#ports.trace(`recv ${describeMessage(m)}`);
    } else {
      this.stats.dropped++;
      this.#ports.trace(`lost ${describeMessage(m)} (down)`);
    }
  }
}
