/**
 * Log lines in the layout etcdctl's zap loggers write to stderr (one JSON object per line:
 * level, ts, caller, msg, then the fields). The client library's logs carry an ISO-8601 `ts`
 * (`2026-01-02T03:04:05.678Z`); the snapshot tool's carry epoch seconds (`1767323045.678`).
 */
import type { AttemptFailure, ClientLogger } from '../client/index.js';
import { errorStatusText } from '../client/index.js';
import type { Output } from './io.js';

export type LogValue = string | number | bigint | boolean;

function encode(v: LogValue): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

export function zapLine(level: 'info' | 'warn', ts: string | number, caller: string, msg: string, fields: readonly (readonly [string, LogValue])[]): string {
  const head: [string, LogValue][] = [['level', level], ['ts', ts], ['caller', caller], ['msg', msg]];
  return `{${[...head, ...fields].map(([k, v]) => `${JSON.stringify(k)}:${encode(v)}`).join(',')}}\n`;
}

/** Callers (source positions) etcdctl 3.4 prints for the client library's messages. */
const CLIENT_CALLERS: Readonly<Record<string, string>> = {
  'opened snapshot stream; downloading': 'clientv3/maintenance.go:200',
  'completed snapshot read; closing': 'clientv3/maintenance.go:208',
};

/**
 * A ClientLogger writing etcdctl's lines: `retrying of unary invoker failed` for every failed
 * unary attempt (target `endpoint://client-<id>/<first endpoint without its scheme>`, or `passthrough:///<ep>`
 * for calls bound to one endpoint) and the snapshot stream messages.
 */
export function clientLogger(err: Output, now: () => number, clientId: string, endpoints: readonly string[]): ClientLogger {
  const iso = (): string => new Date(now()).toISOString();
  return {
    attemptFailed: (f: AttemptFailure) => {
      const target = f.pinned ? `passthrough:///${f.endpoint}` : `endpoint://client-${clientId}/${(endpoints[0] ?? f.endpoint).replace(/^https?:\/\//i, '')}`;
      err.write(
        zapLine('warn', iso(), 'clientv3/retry_interceptor.go:62', 'retrying of unary invoker failed', [
          ['target', target],
          ['attempt', f.attempt],
          ['error', errorStatusText(f.error)],
        ]),
      );
    },
    info: (msg, fields) => {
      const pairs = Object.entries(fields).filter((e): e is [string, LogValue] => ['string', 'number', 'bigint', 'boolean'].includes(typeof e[1]));
      err.write(zapLine('info', iso(), CLIENT_CALLERS[msg] ?? 'clientv3/client.go:0', msg, pairs));
    },
  };
}

/** An info line of the snapshot tool (epoch-seconds `ts`). */
export function toolInfo(err: Output, now: () => number, caller: string, msg: string, fields: readonly (readonly [string, LogValue])[]): void {
  err.write(zapLine('info', now() / 1000, caller, msg, fields));
}
