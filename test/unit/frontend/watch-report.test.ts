/**
 * The front end's watch report (server/frontend/watch-report.ts) comes back exactly: the hub's
 * four gauges, the three counts and one handled count per gRPC code, up to 2^32 - 1; a payload
 * of the wrong size is refused rather than misread.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CODE_NAMES } from '../../../server/api/grpc/codes.js';
import { decodeWatchReport, encodeWatchReport, type WatchReport } from '../../../server/frontend/watch-report.js';

void describe('watch report', () => {
  void it('comes back exactly', () => {
    const reports: WatchReport[] = [
      { stats: { streams: 0, watchers: 0, slowWatchers: 0, pendingEvents: 0 }, started: 0, received: 0, sent: 0, handled: CODE_NAMES.map(() => 0) },
      {
        stats: { streams: 3, watchers: 10_000, slowWatchers: 7, pendingEvents: 2 ** 32 - 1 },
        started: 5,
        received: 123_456,
        sent: 2 ** 31,
        handled: CODE_NAMES.map((_, code) => code * 1000 + 1),
      },
    ];
    for (const r of reports) assert.deepEqual(decodeWatchReport(encodeWatchReport(r)), r);
  });

  void it('refuses a payload of another size', () => {
    const payload = encodeWatchReport({ stats: { streams: 1, watchers: 1, slowWatchers: 0, pendingEvents: 0 }, started: 1, received: 1, sent: 1, handled: [1] });
    assert.throws(() => decodeWatchReport(payload.subarray(4)), /watch report of/);
    assert.throws(() => decodeWatchReport(Buffer.concat([payload, Buffer.alloc(4)])), /watch report of/);
  });
});
