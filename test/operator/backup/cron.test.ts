// Table tests of the cron schedule parser (operator/api/cron.ts): accepted and refused forms,
// and the next firing time after a given instant (UTC).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextAfter, parseCron } from '../../../operator/api/cron.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString().replace('.000Z', 'Z'));

const NEXT: readonly (readonly [schedule: string, after: string, next: string])[] = [
  ['* * * * *', '2026-03-01T10:00:00Z', '2026-03-01T10:01:00Z'],
  ['* * * * *', '2026-03-01T10:00:59.500Z', '2026-03-01T10:01:00Z'],
  ['*/15 * * * *', '2026-03-01T10:07:00Z', '2026-03-01T10:15:00Z'],
  ['0 */6 * * *', '2026-03-01T10:00:00Z', '2026-03-01T12:00:00Z'],
  ['30 2 * * *', '2026-03-01T02:30:00Z', '2026-03-02T02:30:00Z'],
  ['0 0 1 * *', '2026-01-31T12:00:00Z', '2026-02-01T00:00:00Z'],
  ['0 0 31 * *', '2026-02-01T00:00:00Z', '2026-03-31T00:00:00Z'],
  ['0 0 29 2 *', '2026-03-01T00:00:00Z', '2028-02-29T00:00:00Z'],
  ['0 9 * * MON-FRI', '2026-03-06T10:00:00Z', '2026-03-09T09:00:00Z'], // Friday → Monday
  ['0 0 * * 7', '2026-03-02T00:00:00Z', '2026-03-08T00:00:00Z'], // 7 = Sunday
  ['0 0 * jan,jul *', '2026-03-01T00:00:00Z', '2026-07-01T00:00:00Z'],
  ['0 0 13 * 5', '2026-03-01T00:00:00Z', '2026-03-06T00:00:00Z'], // day-of-month OR day-of-week (Friday 6th)
  ['5-10/5 1 * * *', '2026-03-01T01:05:00Z', '2026-03-01T01:10:00Z'],
  ['50/5 * * * *', '2026-03-01T01:56:00Z', '2026-03-01T02:50:00Z'],
  ['*/5 * * * * *', '2026-03-01T10:00:00Z', '2026-03-01T10:00:05Z'], // 6 fields: seconds first
  ['*/5 * * * * *', '2026-03-01T10:00:03.200Z', '2026-03-01T10:00:05Z'],
  ['0 0 12 * * *', '2026-03-01T12:00:00Z', '2026-03-02T12:00:00Z'],
  ['@hourly', '2026-03-01T10:20:00Z', '2026-03-01T11:00:00Z'],
  ['@daily', '2026-03-01T10:20:00Z', '2026-03-02T00:00:00Z'],
  ['@weekly', '2026-03-01T10:20:00Z', '2026-03-08T00:00:00Z'],
  ['@monthly', '2026-03-01T10:20:00Z', '2026-04-01T00:00:00Z'],
  ['@yearly', '2026-03-01T10:20:00Z', '2027-01-01T00:00:00Z'],
];

for (const [schedule, after, next] of NEXT) {
  void test(`cron "${schedule}" after ${after} → ${next}`, () => {
    const p = parseCron(schedule);
    assert.ok(p.ok, p.ok ? '' : p.error);
    assert.equal(iso(nextAfter(p.schedule, at(after))), next);
  });
}

const REFUSED: readonly (readonly [schedule: string, mentions: RegExp])[] = [
  ['', /fields/],
  ['* * * *', /4 fields/],
  ['* * * * * * *', /7 fields/],
  ['60 * * * *', /minute/],
  ['* 24 * * *', /hour/],
  ['* * 0 * *', /day-of-month/],
  ['* * * 13 *', /month/],
  ['* * * * 8', /day-of-week/],
  ['*/0 * * * *', /step/],
  ['10-5 * * * *', /ascending/],
  ['a * * * *', /minute/],
  ['0 0 30 2 *', /never fires/],
  ['@often', /unknown macro/],
];

for (const [schedule, mentions] of REFUSED) {
  void test(`cron "${schedule}" is refused (${mentions.source})`, () => {
    const p = parseCron(schedule);
    assert.equal(p.ok, false);
    if (!p.ok) assert.match(p.error, mentions);
  });
}
