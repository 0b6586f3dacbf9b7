/**
 * Data the rows need before the first run: the key the range rows read, written through one
 * member and awaited on every member (serializable reads on a follower see it only once applied).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Deployment } from './deployment.js';
import { openKv } from './load/channel.js';
import { prepareRange, RANGE_KEY } from './load/range.js';
import { rangeCount } from './member-probe.js';

const APPLY_TIMEOUT_MS = 10_000;

export async function prepareRangeKey(d: Deployment, valueSize: number): Promise<void> {
  const kv = openKv(d.members[0].target);
  try {
    await prepareRange(kv, valueSize);
  } finally {
    kv.close();
  }
  for (const m of d.members) {
    const deadline = Date.now() + APPLY_TIMEOUT_MS;
    while ((await rangeCount(m.target, RANGE_KEY, true, 1000)) !== 1) {
      if (Date.now() > deadline) throw new Error(`${m.name} did not apply the range key within ${APPLY_TIMEOUT_MS} ms`);
      await sleep(50);
    }
  }
}
