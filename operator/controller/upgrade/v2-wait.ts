/**
 * The v2 wait (SPEC.md upgrade rule 4): after each member is upgraded (the last one too), wait
 * `upgrade.v2WaitSeconds` when any member's v2 store exceeds `upgrade.v2ThresholdBytes` or its
 * size cannot be read (kvstore_v2_store_size_bytes missing or the member unreachable). Pure.
 */
import type { ObservedMember } from '../model.js';

export type V2WaitVerdict = { readonly wait: false } | { readonly wait: true; readonly why: string };

export function v2WaitNeeded(slots: readonly ObservedMember[], thresholdBytes: number): V2WaitVerdict {
  for (const m of slots) {
    const bytes = m.probe?.v2StoreBytes;
    if (bytes === undefined) return { wait: true, why: `the v2 store size of ${m.name} cannot be read` };
    if (bytes > thresholdBytes) return { wait: true, why: `the v2 store of ${m.name} holds ${bytes} bytes (threshold ${thresholdBytes})` };
  }
  return { wait: false };
}
