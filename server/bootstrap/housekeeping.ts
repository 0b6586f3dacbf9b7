/**
 * The member's periodic duties, each a timer that only reads state and proposes requests:
 * - lease expiry: expired leases are revoked through the log (this member is leader);
 * - lease checkpoints (when the lessor has checkpointing on, this member is leader): due
 *   remaining TTLs are proposed as LeaseCheckpointRequests of at most 1000 entries;
 * - backend size (the store's accounting, MvccStore.size): refreshed on the size gauges;
 * - watch progress notifications;
 * - auto-compaction (when configured).
 * `stop()` clears every timer.
 */
import type { Logger } from 'pino';
import type { Compactor } from '../compactor/compactor.js';
import { checkpointBatches, MAX_CHECKPOINTS_PER_PROPOSAL } from '../lease/checkpoint-schedule.js';
import type { Lessor } from '../lease/lessor.js';
import type { Member } from '../member/member.js';
import type { MvccStore, StoreSize } from '../mvcc/types.js';
import type { WatchHub } from '../watch/watch-hub.js';

export interface HousekeepingDeps {
  readonly member: Member;
  readonly store: MvccStore;
  readonly lessor: Lessor;
  readonly hub: WatchHub;
  readonly compactor: Compactor | undefined;
  readonly progressIntervalMs: number;
  readonly now: () => number;
  readonly logger: Logger;
  /** Also the moment the watch and proposal gauges are refreshed. */
  readonly onDbSize: (size: StoreSize) => void;
  readonly onLeaseExpired: (count: number) => void;
}

const LEASE_CHECK_MS = 500;
const MAX_REVOKES_PER_CHECK = 500;
/** Checkpoints proposed per check (at most 10 proposals); the rest stay due for the next check. */
const MAX_CHECKPOINTS_PER_CHECK = 10 * MAX_CHECKPOINTS_PER_PROPOSAL;
/** Gauge refresh (backend size, watch and proposal gauges). Quota checks and Status read the store's size directly. */
const SIZE_CHECK_MS = 5000;

export function startHousekeeping(d: HousekeepingDeps): { stop(): void } {
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, fn: () => void | Promise<void>): void => {
    let running = false;
    const t = setInterval(() => {
      if (running) return;
      running = true;
      Promise.resolve()
        .then(fn)
        .catch((err: unknown) => d.logger.warn({ err }, 'housekeeping task failed'))
        .finally(() => {
          running = false;
        });
    }, ms);
    t.unref();
    timers.push(t);
  };

  every(LEASE_CHECK_MS, async () => {
    const due = d.lessor.expired(d.now(), MAX_REVOKES_PER_CHECK);
    if (due.length === 0) return;
    const results = await Promise.all(due.map((ID) => d.member.propose({ $case: 'leaseRevoke', value: { ID } })));
    d.onLeaseExpired(results.filter((r) => r.ok).length);
  });

  every(LEASE_CHECK_MS, async () => {
    const due = d.lessor.dueCheckpoints(d.now(), MAX_CHECKPOINTS_PER_CHECK);
    if (due.length === 0) return;
    const results = await Promise.all(
      checkpointBatches(due).map((checkpoints) => d.member.propose({ $case: 'leaseCheckpoint', value: { checkpoints } })),
    );
    const failed = results.find((r) => !r.ok);
    if (failed !== undefined && !failed.ok) d.logger.warn({ error: failed.error.kind, checkpoints: due.length }, 'failed to propose lease checkpoints');
  });

  every(SIZE_CHECK_MS, () => d.onDbSize(d.store.size));

  every(d.progressIntervalMs, () => d.hub.progressTick());

  const compactor = d.compactor;
  if (compactor) {
    every(Math.min(compactor.intervalMs, 60_000), async () => {
      const target = compactor.tick(d.now(), d.store.currentRevision, d.store.compactRevision);
      if (target === undefined) return;
      const res = await d.member.propose({ $case: 'compaction', value: { revision: target, physical: false } });
      if (res.ok) d.logger.info({ revision: target.toString() }, 'completed auto compaction');
      else d.logger.warn({ revision: target.toString(), error: res.error.kind }, 'failed auto compaction');
    });
  }

  return { stop: () => timers.forEach((t) => clearInterval(t)) };
}
