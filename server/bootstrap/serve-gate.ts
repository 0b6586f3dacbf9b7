/**
 * When a starting member may answer clients — etcd's order at start: publish, then serve.
 *
 * The gate opens once both hold:
 * - this member's attributes were published through the log (publish.ts) and the entry was
 *   applied here. A proposal is appended after everything the leader has committed, so once it
 *   is applied, so is everything committed before it: all that this member applied, delivered
 *   or answered in an earlier run (the commit index in its WAL can lag behind that: a commit
 *   that arrives without new entries is applied but not written);
 * - the applied index has reached `recoveredCommit`, the commit index of the WAL's hard state
 *   (implied by the first; checked on its own so the contract does not rest on that argument).
 *
 * Until then the client port is not bound (client-port.ts) and `/health` — which the metrics
 * port serves from the start — is unhealthy (`gateOnServing`). Without a quorum the publish is
 * retried and the gate stays closed, as etcd keeps its client port closed until `ReadyNotify`.
 * No I/O; `opened` resolves once and never rejects.
 */
import type { HealthAnswer } from '../clusterversion/health-gate.js';

/** The `/health` reason while the member does not serve clients yet. */
export const NOT_SERVING_YET = 'NOT SERVING CLIENTS YET';

export interface ServeGate {
  /** Whether the member serves clients (both conditions held once). */
  readonly isOpen: boolean;
  /** Resolves when the gate opens. */
  readonly opened: Promise<void>;
  /** This member's attributes were applied through the log. */
  published(): void;
  /** The member applied entries; opens the gate if the publish had gone through first. */
  applied(): void;
}

/** A closed gate for a member whose WAL recorded `recoveredCommit`; `appliedIndex` reads the member's. */
export function serveGate(recoveredCommit: number, appliedIndex: () => number): ServeGate {
  let published = false;
  let isOpen = false;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const check = (): void => {
    if (isOpen || !published || appliedIndex() < recoveredCommit) return;
    isOpen = true;
    open();
  };
  return {
    get isOpen() {
      return isOpen;
    },
    opened,
    published: () => {
      published = true;
      check();
    },
    applied: check,
  };
}

/** `answer`, or unhealthy when it is healthy but the member does not serve clients yet. */
export function gateOnServing(answer: HealthAnswer, serving: boolean): HealthAnswer {
  if (!answer.healthy || serving) return answer;
  return { healthy: false, reason: NOT_SERVING_YET };
}
