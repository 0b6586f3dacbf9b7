/**
 * The sequential specification of one key, for the linearizability checker: the key is
 * absent or holds a value, possibly attached to a lease; the leases granted for this key
 * that are still alive are part of its state (leases are per key, see world/history.ts).
 *
 * Each step checks the operation's output against the state (undefined output: unknown,
 * any is accepted) and returns the next state, or undefined if the output was impossible.
 */
import type { KvInput, KvOutput } from '../world/history.js';
import type { Model } from './linearizability.js';

export interface KeyState {
  readonly value: string | null;
  /** The lease the current value is attached to. */
  readonly lease: string | null;
  /** Leases of this key granted and not revoked, sorted. */
  readonly live: readonly string[];
}

const set = (s: KeyState, value: string | null, lease: string | null): KeyState => ({ value, lease, live: s.live });

export const keyModel: Model<KeyState, KvInput, KvOutput> = {
  init: { value: null, lease: null, live: [] },
  step(s, i, o) {
    switch (i.kind) {
      case 'put':
        if (o?.kind === 'put' && o.prev !== s.value) return undefined;
        return set(s, i.value, null);
      case 'get':
        if (o?.kind === 'get' && o.value !== s.value) return undefined;
        return s;
      case 'del':
        if (o?.kind === 'del' && (o.deleted === 1) !== (s.value !== null)) return undefined;
        return set(s, null, null);
      case 'cas': {
        const hit = s.value === i.expect;
        if (o?.kind === 'cas' && (o.succeeded !== hit || (!hit && o.current !== s.value))) return undefined;
        return hit ? set(s, i.value, null) : s;
      }
      case 'grant':
        if (s.live.includes(i.lease)) return undefined;
        return { ...s, live: [...s.live, i.lease].sort() };
      case 'putl': {
        const alive = s.live.includes(i.lease);
        if (o?.kind === 'lease-missing') return alive ? undefined : s;
        if (o !== undefined && (!alive || o.kind !== 'putl' || o.prev !== s.value)) return undefined;
        return alive ? set(s, i.value, i.lease) : s;
      }
      case 'revoke': {
        const alive = s.live.includes(i.lease);
        if (o?.kind === 'lease-missing') return alive ? undefined : s;
        if (o !== undefined && !alive) return undefined;
        if (!alive) return s;
        const live = s.live.filter((l) => l !== i.lease);
        return s.lease === i.lease ? { value: null, lease: null, live } : { ...s, live };
      }
    }
  },
  key: (s) => `${s.value ?? '\u0000'}|${s.lease ?? ''}|${s.live.join(',')}`,
};
