/**
 * A member stopped right after it answered a write exits cleanly (status 0) and keeps the
 * write. Several rounds, each a SIGTERM sent the moment a put is answered, then a restart on
 * the same data dir. (Whether the flush that was due still runs depends on timing here; the
 * deterministic check that it never runs after stop() is in test/sim/world/world.test.ts.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastRunLog } from '../support/member-log.js';
import { openKv, put } from '../support/kv-client.js';
import { ctlFor, startMember } from '../support/processes.js';

const ROUNDS = 5;

void describe('a member stopped right after a write', () => {
  void it('exits with status 0 every time and keeps every write across restarts', async () => {
    const m = await startMember('kvstore');
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const kv = openKv(m.endpoint);
        try {
          await put(kv, `stop/${round}`, `v${round}`, 5000);
        } finally {
          kv.close();
        }
        const code = await m.stop('SIGTERM');
        assert.equal(code, 0, `round ${round}: exit status after SIGTERM; output:\n${lastRunLog(m)}`);
        await m.restart({ waitReady: true });
      }
      const got = await ctlFor(m).ok(['get', 'stop/', '--prefix', '--print-value-only']);
      assert.equal(got, Array.from({ length: ROUNDS }, (_, i) => `v${i + 1}\n`).join(''));
    } finally {
      await m.stop('SIGKILL');
    }
  });
});
