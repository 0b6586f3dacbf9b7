/**
 * What Go's http.ServeMux does before etcd's v2 handlers see a request: the path is
 * percent-decoded, and a path that is not clean (`//`, `.`, `..` segments) is answered
 * with `301 Moved Permanently` to the cleaned path (trailing slash kept, query kept).
 *
 * `Location` escapes the path like Go's url.URL.String(); a GET also gets the small HTML
 * body of http.Redirect.
 */
import type { Context } from 'koa';
import { cleanPath } from '../../../v2store/path.js';

/** Decoded path, or undefined when it has a malformed %-escape or is not UTF-8. */
export function decodePath(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Go's ServeMux cleanPath. */
export function muxCleanPath(p: string): string {
  const np = cleanPath(p);
  return p.endsWith('/') && np !== '/' ? `${np}/` : np;
}

/** Go's url.PathEscape-like escaping of a path (encodePath mode). */
export function escapePath(p: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(p)) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-_.~$&+,/:;=@]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const htmlEscape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c] as string);

export function redirectToClean(ctx: Context, cleaned: string): void {
  const url = escapePath(cleaned) + (ctx.querystring !== '' ? `?${ctx.querystring}` : '');
  const body = ctx.method === 'GET' ? `<a href="${htmlEscape(url)}">Moved Permanently</a>.\n\n` : '';
  ctx.respond = false;
  const res = ctx.res;
  res.statusCode = 301;
  res.setHeader('Location', url);
  if (ctx.method === 'GET' || ctx.method === 'HEAD') res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
