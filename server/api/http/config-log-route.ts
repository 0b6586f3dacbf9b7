/**
 * PUT /config/local/log {"Level": "<LEVEL>"}: changes this member's log level at run time
 * (deprecated in 3.5, where it answers as before but logs a deprecation warning).
 * Levels are the upper-case names CRITICAL, ERROR, WARNING, NOTICE, INFO, DEBUG, TRACE (the
 * field name is matched case-insensitively). 204 on success; 400 `{"message":"Invalid json
 * body"}` or `{"message":"Invalid log level <x>"}`; other methods 405.
 */
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { readBody } from './read-body.js';
import { sendMethodNotAllowed } from './plain-http-error.js';

const LEVELS: Readonly<Record<string, string>> = {
  CRITICAL: 'fatal',
  ERROR: 'error',
  WARNING: 'warn',
  NOTICE: 'info',
  INFO: 'info',
  DEBUG: 'debug',
  TRACE: 'trace',
};

export interface LogLevelControl {
  /** Sets the member logger's level (a pino level name). */
  set(level: string): void;
  /** True on lines where the endpoint is deprecated. */
  readonly deprecated: boolean;
}

const badRequest = (message: string) => ({ status: 400, body: JSON.stringify({ message }) });

export function configLogHandler(control: LogLevelControl, logger: Logger): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'PUT') return sendMethodNotAllowed(ctx, 'PUT');
    const text = await readBody(ctx.req, 64 * 1024);
    let answer: { status: number; body?: string };
    let parsed: unknown;
    try {
      parsed = text.ok ? JSON.parse(text.text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed === null || typeof parsed !== 'object') answer = badRequest('Invalid json body');
    else {
      const key = Object.keys(parsed).find((k) => k.toLowerCase() === 'level');
      const raw = key === undefined ? undefined : (parsed as Record<string, unknown>)[key];
      const level = typeof raw === 'string' ? LEVELS[raw] : undefined;
      if (level === undefined) answer = badRequest(`Invalid log level ${typeof raw === 'string' ? raw : String(raw)}`);
      else {
        if (control.deprecated) logger.warn({ level: raw }, '/config/local/log is deprecated; use --log-level');
        control.set(level);
        logger.info({ level: raw }, 'log level changed through /config/local/log');
        answer = { status: 204 };
      }
    }
    ctx.status = answer.status;
    if (answer.body !== undefined) {
      ctx.type = 'application/json';
      ctx.body = answer.body;
    }
  };
}
