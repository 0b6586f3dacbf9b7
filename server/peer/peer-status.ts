/**
 * Whether a peer is reachable, as seen from its outbound stream, with transition logs and the
 * `active_peers` / `disconnected_peers_total` metrics.
 *
 * Contract: `activate` and `deactivate` log only on a change (never once per retry):
 * `peer became active` (info, peer-id) and `peer became inactive (message send to peer
 * failed)` (warn, peer-id, error `failed to <action> <peer> on <source> (<reason>)`).
 * `activeSince` is the Unix ms of the last inactive → active transition, undefined while inactive.
 */
import type { Logger } from 'pino';
import { formatId } from '../config/identity.js';
import type { PeerMetrics } from './peer-metrics.js';

export class PeerStatus {
  readonly #log: Logger;
  readonly #peerHex: string;
  readonly #labels: { Local: string; Remote: string };
  readonly #metrics: PeerMetrics;
  readonly #now: () => number;
  #since: number | undefined;

  /** @param log bound with `local-member-id`. */
  constructor(localId: bigint, peerId: bigint, log: Logger, metrics: PeerMetrics, now: () => number) {
    this.#log = log;
    this.#peerHex = formatId(peerId);
    this.#labels = { Local: formatId(localId), Remote: this.#peerHex };
    this.#metrics = metrics;
    this.#now = now;
  }

  get active(): boolean {
    return this.#since !== undefined;
  }

  get activeSince(): number | undefined {
    return this.#since;
  }

  activate(): void {
    if (this.#since !== undefined) return;
    this.#since = this.#now();
    this.#log.info({ 'peer-id': this.#peerHex }, 'peer became active');
    this.#metrics.activePeers.set(this.#labels, 1);
  }

  /** @param action e.g. `write`, `dial`; @param reason the underlying error text. */
  deactivate(action: string, reason: string): void {
    if (this.#since === undefined) return;
    this.#since = undefined;
    const error = `failed to ${action} ${this.#peerHex} on stream Frames (${reason})`;
    this.#log.warn({ 'peer-id': this.#peerHex, error }, 'peer became inactive (message send to peer failed)');
    this.#metrics.activePeers.set(this.#labels, 0);
    this.#metrics.disconnectedPeers.inc(this.#labels);
  }

  /** Forgets the peer without a warning (transport closing, peer removed). */
  retire(): void {
    this.#since = undefined;
    this.#metrics.activePeers.remove(this.#labels);
  }
}
