/**
 * Reading a kvstore member's structured log (pino JSON lines, message in `msg`) out of
 * `Member.logs()`, which interleaves every run's stdout and stderr with the harness's
 * `--- <kind> <name> run <n>: …` markers. Lines that are not JSON objects are skipped.
 */
import type { Member } from './server-process.js';

/** One log record: `msg` plus its other fields as logged. */
export interface LogRecord {
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** The JSON log records in `text`, in order. */
export function logRecords(text: string): LogRecord[] {
  const out: LogRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const rec = JSON.parse(line) as { msg?: unknown };
      if (typeof rec.msg === 'string') out.push(rec as LogRecord);
    } catch {
      // a line cut by the log limit or a non-JSON line that starts with '{': not a record
    }
  }
  return out;
}

/** The output of the member's current (or last) run only. */
export function lastRunLog(m: Member): string {
  const text = m.logs();
  const at = text.lastIndexOf(`--- ${m.kind} ${m.name} run `);
  return at < 0 ? text : text.slice(at);
}

/** Records of the last run whose `msg` is `msg`. */
export function lastRunRecords(m: Member, msg: string): LogRecord[] {
  return logRecords(lastRunLog(m)).filter((r) => r.msg === msg);
}

/** How many records with `msg` the member has logged over all its runs. */
export function countRecords(m: Member, msg: string): number {
  return logRecords(m.logs()).filter((r) => r.msg === msg).length;
}
