/**
 * Request parameters as Go's `Request.ParseForm` sees them (what etcd's v2 handlers read).
 *
 * Contract:
 * - the query string is always parsed; the body only for POST/PUT/PATCH with
 *   `Content-Type: application/x-www-form-urlencoded` (parameters ignored), read up to
 *   10 MiB (more: `http: POST too large`);
 * - body values come before query values of the same name; `first(name)` is Go's
 *   `FormValue`, `has(name)` tells a present-but-empty parameter from an absent one;
 * - `+` is a space, `%XX` a byte (UTF-8 decoded), `;` inside a pair is refused; the first
 *   malformed pair is reported with Go's error text (the caller answers 210), the body's
 *   error winning over the query's.
 */
import type { IncomingMessage } from 'node:http';
import { readBody } from '../read-body.js';

export const MAX_FORM_BYTES = 10 << 20;

export class FormValues {
  readonly #values = new Map<string, string[]>();

  add(name: string, value: string): void {
    const list = this.#values.get(name);
    if (list) list.push(value);
    else this.#values.set(name, [value]);
  }

  has(name: string): boolean {
    return this.#values.has(name);
  }

  /** First value, or '' when absent (Go's FormValue). */
  first(name: string): string {
    return this.#values.get(name)?.[0] ?? '';
  }
}

export type ParsedForm = { readonly ok: true; readonly form: FormValues } | { readonly ok: false; readonly error: string };

/** Go's url.ParseQuery into `into`; returns the error text of the first bad pair. */
export function parseQueryInto(into: FormValues, query: string): string | undefined {
  let error: string | undefined;
  for (const pair of query.split('&')) {
    if (pair.includes(';')) {
      error = 'invalid semicolon separator in query';
      continue;
    }
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = unescapeQuery(eq < 0 ? pair : pair.slice(0, eq));
    const value = unescapeQuery(eq < 0 ? '' : pair.slice(eq + 1));
    if (!key.ok || !value.ok) {
      error ??= !key.ok ? key.error : (value as { error: string }).error;
      continue;
    }
    into.add(key.text, value.text);
  }
  return error;
}

function unescapeQuery(s: string): { ok: true; text: string } | { ok: false; error: string } {
  if (!s.includes('%') && !s.includes('+')) return { ok: true, text: s };
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return { ok: false, error: `invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}` };
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c === 0x2b) {
      bytes.push(0x20);
    } else {
      for (const b of new TextEncoder().encode(s[i] as string)) bytes.push(b);
    }
  }
  return { ok: true, text: new TextDecoder().decode(new Uint8Array(bytes)) };
}

/** Media type of a Content-Type header (lower case), or Go's mime error text. */
export function mediaType(contentType: string | undefined): { ok: true; type: string } | { ok: false; error: string } {
  const raw = (contentType === undefined || contentType === '' ? 'application/octet-stream' : contentType).split(';')[0]?.trim() ?? '';
  if (raw === '') return { ok: false, error: 'mime: no media type' };
  const slash = raw.indexOf('/');
  if (slash < 0) return { ok: false, error: 'mime: expected slash after first token' };
  if (slash === raw.length - 1) return { ok: false, error: 'mime: expected token after slash' };
  return { ok: true, type: raw.toLowerCase() };
}

/**
 * Reads the parameters of a request. Resolves `undefined` when the client went away
 * before its body arrived (nothing can be answered).
 */
export async function readForm(req: IncomingMessage, method: string, rawQuery: string): Promise<ParsedForm | undefined> {
  const form = new FormValues();
  let error: string | undefined;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const type = mediaType(req.headers['content-type']);
    if (!type.ok) error = type.error;
    else if (type.type === 'application/x-www-form-urlencoded') {
      const body = await readBody(req, MAX_FORM_BYTES);
      if (!body.ok) {
        if (body.status === undefined) return undefined;
        return { ok: false, error: 'http: POST too large' };
      }
      error = parseQueryInto(form, body.text);
    }
  }
  const queryError = parseQueryInto(form, rawQuery);
  error ??= queryError;
  return error === undefined ? { ok: true, form } : { ok: false, error };
}
