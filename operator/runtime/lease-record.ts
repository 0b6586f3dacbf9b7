/**
 * The coordination.k8s.io/v1 Lease as a leader-election record, and the pure rule of one
 * acquire-or-renew attempt (the client-go rule):
 * - a Lease with no holder, or whose record has not changed for leaseDurationSeconds of OUR
 *   clock since we first saw it (so clock skew between candidates does not matter), is free;
 * - taking it over (from another holder, or released) sets acquireTime and increments leaseTransitions;
 * - renewing keeps acquireTime and transitions, moves renewTime.
 * Times are MicroTime strings (RFC 3339 with exactly 6 fractional digits, as the API server parses them).
 */
import type { KubeObject } from './kube/types.js';

export const LEASE_API_VERSION = 'coordination.k8s.io/v1';
export const LEASE_KIND = 'Lease';

export interface LeaseSpec {
  readonly holderIdentity?: string;
  readonly leaseDurationSeconds?: number;
  readonly acquireTime?: string;
  readonly renewTime?: string;
  readonly leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  readonly spec?: LeaseSpec;
}

/** `ms` since the epoch → `2026-11-21T10:32:02.123000Z`. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** A timestamp read back from a Lease (client-node gives 3 fractional digits) as a MicroTime. */
export function asMicroTime(time: string): string {
  if (/\.\d{6}Z$/.test(time)) return time;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? time : microTime(ms);
}

/** What a candidate remembers of the last record it saw, and when (its own clock). */
export interface Observation {
  readonly record: string;
  readonly at: number;
}

/** Identity of a record's content: any renewal or takeover changes it. */
export function recordOf(spec: LeaseSpec | undefined): string {
  return JSON.stringify([spec?.holderIdentity ?? '', spec?.renewTime ?? '', spec?.leaseDurationSeconds ?? 0, spec?.leaseTransitions ?? 0]);
}

/** Updates the observation with the lease just read at `now`. */
export function observe(previous: Observation | undefined, spec: LeaseSpec | undefined, now: number): Observation {
  const record = recordOf(spec);
  return previous !== undefined && previous.record === record ? previous : { record, at: now };
}

export type AttemptDecision =
  | { readonly kind: 'Write'; readonly spec: LeaseSpec; readonly takeover: boolean }
  | { readonly kind: 'HeldByOther'; readonly holder: string; readonly expiresInMs: number };

/**
 * Decides one attempt of `identity` on a lease whose current spec is `spec`, observed as `seen`
 * (from observe()), at `now`; `durationSeconds` is what we write as leaseDurationSeconds.
 */
export function decideAttempt(identity: string, spec: LeaseSpec | undefined, seen: Observation, now: number, durationSeconds: number): AttemptDecision {
  const holder = spec?.holderIdentity ?? '';
  const renewTime = microTime(now);
  if (holder === identity) {
    return {
      kind: 'Write',
      takeover: false,
      spec: {
        holderIdentity: identity,
        leaseDurationSeconds: durationSeconds,
        acquireTime: spec?.acquireTime !== undefined ? asMicroTime(spec.acquireTime) : renewTime,
        renewTime,
        leaseTransitions: spec?.leaseTransitions ?? 0,
      },
    };
  }
  const heldForMs = (spec?.leaseDurationSeconds ?? 0) * 1000;
  const expiresInMs = seen.at + heldForMs - now;
  if (holder !== '' && expiresInMs > 0) return { kind: 'HeldByOther', holder, expiresInMs };
  return {
    kind: 'Write',
    takeover: true,
    spec: {
      holderIdentity: identity,
      leaseDurationSeconds: durationSeconds,
      acquireTime: renewTime,
      renewTime,
      leaseTransitions: spec === undefined ? 0 : (spec.leaseTransitions ?? 0) + 1,
    },
  };
}
