/**
 * Lease checkpointing settings. `--experimental-enable-lease-checkpoint` (3.4+) is a flag; the
 * interval between two checkpoints of a lease is not a flag in etcd 3.4 (5 minutes, changed only
 * by etcd's own tests), so here it is a test knob read from the environment:
 * `KVSTORE_LEASE_CHECKPOINT_INTERVAL` (Go duration text, e.g. `2s`; > 0). It applies whether the
 * configuration comes from flags or from a YAML file, and has no effect while the flag is off.
 */
import { parseGoDuration } from './duration.js';

export const LEASE_CHECKPOINT_INTERVAL_ENV = 'KVSTORE_LEASE_CHECKPOINT_INTERVAL';
/** etcd's checkpoint interval. */
export const DEFAULT_LEASE_CHECKPOINT_INTERVAL_MS = 5 * 60 * 1000;

export type IntervalRead = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly message: string };

/** The checkpoint interval in ms: the environment knob when set (non-empty), else the default. */
export function leaseCheckpointInterval(env: Readonly<Record<string, string | undefined>>): IntervalRead {
  const text = env[LEASE_CHECKPOINT_INTERVAL_ENV];
  if (text === undefined || text === '') return { ok: true, ms: DEFAULT_LEASE_CHECKPOINT_INTERVAL_MS };
  const parsed = parseGoDuration(text);
  if (!parsed.ok) return { ok: false, message: `invalid value ${JSON.stringify(text)} for environment variable ${LEASE_CHECKPOINT_INTERVAL_ENV}: ${parsed.reason}` };
  if (!(parsed.ms > 0)) return { ok: false, message: `invalid value ${JSON.stringify(text)} for environment variable ${LEASE_CHECKPOINT_INTERVAL_ENV}: must be > 0` };
  return { ok: true, ms: parsed.ms };
}
