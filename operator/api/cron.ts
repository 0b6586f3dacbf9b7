/**
 * Cron schedules of `spec.backup.schedule`, read in UTC. Pure: no clock, no I/O.
 *
 * Accepted forms:
 * - 5 fields, as in crontab(5) and Kubernetes CronJobs: `minute hour day-of-month month day-of-week`;
 * - 6 fields, a leading `second` field (the form of the Quartz-style Node schedulers), for
 *   schedules shorter than a minute (`*\/10 * * * * *`: every 10 s);
 * - the macros `@yearly` (`@annually`), `@monthly`, `@weekly`, `@daily` (`@midnight`), `@hourly`.
 *
 * Each field: `*`, a number, a range `a-b`, a step `*\/n`, `a-b/n` or `a/n` (from a to the field's
 * end), or a comma list of those. Months take `JAN`…`DEC`, days of week `SUN`…`SAT` (0 and 7 are
 * Sunday). As in Vixie cron, when both day-of-month and day-of-week are restricted (neither is `*`),
 * a day matches when EITHER does; otherwise both must.
 *
 * Contract: `parseCron` returns the schedule or the reason it is not one (a schedule that can
 * never fire, like `0 0 30 2 *`, is refused); `nextAfter(s, ms)` is the first instant strictly
 * after `ms` (milliseconds since the epoch, UTC) that matches, on a whole second.
 */

export interface CronSchedule {
  /** The text it was parsed from. */
  readonly source: string;
  readonly seconds: ReadonlySet<number>;
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  /** 1 … 12. */
  readonly months: ReadonlySet<number>;
  /** 0 (Sunday) … 6. */
  readonly daysOfWeek: ReadonlySet<number>;
  /** Day-of-month field was `*` (or `?`). */
  readonly anyDayOfMonth: boolean;
  /** Day-of-week field was `*` (or `?`). */
  readonly anyDayOfWeek: boolean;
}

export type CronParse = { readonly ok: true; readonly schedule: CronSchedule } | { readonly ok: false; readonly error: string };

const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface FieldSpec {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
  /** Value the first name stands for (1 for months, 0 for days). */
  readonly namesFrom?: number;
}

const SECOND: FieldSpec = { name: 'second', min: 0, max: 59 };
const MINUTE: FieldSpec = { name: 'minute', min: 0, max: 59 };
const HOUR: FieldSpec = { name: 'hour', min: 0, max: 23 };
const DOM: FieldSpec = { name: 'day-of-month', min: 1, max: 31 };
const MONTH: FieldSpec = { name: 'month', min: 1, max: 12, names: MONTHS, namesFrom: 1 };
const DOW: FieldSpec = { name: 'day-of-week', min: 0, max: 7, names: DAYS, namesFrom: 0 };

type FieldParse = { readonly ok: true; readonly values: Set<number>; readonly any: boolean } | { readonly ok: false; readonly error: string };

function valueOf(text: string, f: FieldSpec): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  const i = f.names?.indexOf(text.toUpperCase()) ?? -1;
  return i < 0 ? undefined : i + (f.namesFrom ?? 0);
}

function parseField(text: string, f: FieldSpec): FieldParse {
  const values = new Set<number>();
  const any = text === '*' || text === '?';
  for (const part of text.split(',')) {
    const m = /^([^/]+)(?:\/(\d+))?$/.exec(part);
    if (m === null) return { ok: false, error: `${f.name} field "${text}": "${part}" is not a value, range or step` };
    const [, range, stepText] = m;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) return { ok: false, error: `${f.name} field "${text}": step must be at least 1` };
    let lo: number | undefined;
    let hi: number | undefined;
    if (range === '*' || range === '?') [lo, hi] = [f.min, f.max];
    else {
      const [a, b, extra] = range.split('-');
      lo = valueOf(a, f);
      hi = b === undefined ? (stepText === undefined ? lo : f.max) : valueOf(b, f);
      if (extra !== undefined || lo === undefined || hi === undefined) return { ok: false, error: `${f.name} field "${text}": "${part}" is not a value, range or step` };
    }
    if (lo < f.min || hi > f.max || lo > hi) return { ok: false, error: `${f.name} field "${text}": values must be ${f.min}-${f.max} and ranges ascending` };
    for (let v = lo; v <= hi; v += step) values.add(f === DOW && v === 7 ? 0 : v);
  }
  return { ok: true, values, any };
}

/** How far nextAfter looks before deciding a schedule never fires (leap days come every 4–8 years). */
const HORIZON_MS = 9 * 366 * 24 * 3600 * 1000;

export function parseCron(source: string): CronParse {
  const text = source.trim();
  const expanded = MACROS[text.toLowerCase()] ?? text;
  if (expanded.startsWith('@')) return { ok: false, error: `unknown macro "${text}" (known: ${Object.keys(MACROS).join(', ')})` };
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) return { ok: false, error: `"${text}" has ${parts.length} fields; a schedule has 5 (minute hour day-of-month month day-of-week) or 6 (a leading second)` };
  const specs = parts.length === 6 ? [SECOND, MINUTE, HOUR, DOM, MONTH, DOW] : [MINUTE, HOUR, DOM, MONTH, DOW];
  const fields: Extract<FieldParse, { ok: true }>[] = [];
  for (let i = 0; i < parts.length; i++) {
    const r = parseField(parts[i], specs[i]);
    if (!r.ok) return r;
    fields.push(r);
  }
  const [sec, min, hour, dom, month, dow] = parts.length === 6 ? fields : [{ ok: true as const, values: new Set([0]), any: false }, ...fields];
  const schedule: CronSchedule = {
    source: text,
    seconds: sec.values,
    minutes: min.values,
    hours: hour.values,
    daysOfMonth: dom.values,
    months: month.values,
    daysOfWeek: dow.values,
    anyDayOfMonth: dom.any,
    anyDayOfWeek: dow.any,
  };
  const ref = Date.UTC(2000, 0, 1);
  if (nextAfter(schedule, ref) === undefined) return { ok: false, error: `"${text}" never fires (no such day)` };
  return { ok: true, schedule };
}

function dayMatches(s: CronSchedule, d: Date): boolean {
  const domOk = s.daysOfMonth.has(d.getUTCDate());
  const dowOk = s.daysOfWeek.has(d.getUTCDay());
  if (!s.anyDayOfMonth && !s.anyDayOfWeek) return domOk || dowOk;
  return domOk && dowOk;
}

/**
 * The first instant strictly after `afterMs` that the schedule matches (ms since the epoch, UTC,
 * a whole second); undefined when none comes within nine years.
 */
export function nextAfter(s: CronSchedule, afterMs: number): number | undefined {
  const d = new Date(Math.floor(afterMs / 1000) * 1000 + 1000);
  const limit = afterMs + HORIZON_MS;
  while (d.getTime() <= limit) {
    if (!s.months.has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1);
      d.setUTCHours(0, 0, 0);
    } else if (!dayMatches(s, d)) {
      d.setUTCDate(d.getUTCDate() + 1);
      d.setUTCHours(0, 0, 0);
    } else if (!s.hours.has(d.getUTCHours())) {
      d.setUTCHours(d.getUTCHours() + 1, 0, 0);
    } else if (!s.minutes.has(d.getUTCMinutes())) {
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0);
    } else if (!s.seconds.has(d.getUTCSeconds())) {
      d.setUTCSeconds(d.getUTCSeconds() + 1);
    } else return d.getTime();
  }
  return undefined;
}
