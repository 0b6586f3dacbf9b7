/**
 * Gateway prefix history (ETCD-FACTS §4.1, SPEC "gRPC gateway"): older prefixes are either
 * rewritten to the current one before routing (etcd 3.4 serves `/v3beta/…` as `/v3/…`) or
 * answered with a redirect (SPEC: 3.3 redirects `/v3alpha` to `/v3beta`).
 *
 * Contract: a path matches a prefix `p` when it equals `p` or starts with `p + "/"`;
 * aliases rewrite `ctx.path` (query kept) and continue; redirects answer 307 (method and
 * body are kept by clients) with `Location` = rewritten path + query. Prefixes are
 * normalised without a trailing slash.
 */
import type { Middleware } from 'koa';

export interface PrefixOptions {
  /** The served prefix, e.g. `/v3`. */
  readonly prefix: string;
  /** Prefixes served as if they were `prefix`. */
  readonly aliases?: readonly string[];
  /** Prefixes redirected to `prefix`. */
  readonly redirects?: readonly string[];
}

export function normalizePrefix(p: string): string {
  const withSlash = p.startsWith('/') ? p : `/${p}`;
  return withSlash.replace(/\/+$/, '');
}

/** The rest of `path` after `prefix`, or undefined when `path` is not under it. */
export function underPrefix(path: string, prefix: string): string | undefined {
  if (path === prefix) return '';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
}

export function prefixRewrite(options: PrefixOptions): Middleware {
  const prefix = normalizePrefix(options.prefix);
  const aliases = (options.aliases ?? []).map(normalizePrefix).filter((a) => a !== prefix);
  const redirects = (options.redirects ?? []).map(normalizePrefix).filter((r) => r !== prefix);
  return async (ctx, next) => {
    for (const alias of aliases) {
      const rest = underPrefix(ctx.path, alias);
      if (rest !== undefined) {
        ctx.path = prefix + rest;
        break;
      }
    }
    for (const from of redirects) {
      const rest = underPrefix(ctx.path, from);
      if (rest !== undefined) {
        ctx.status = 307;
        ctx.set('Location', prefix + rest + (ctx.querystring ? `?${ctx.querystring}` : ''));
        ctx.body = '';
        return;
      }
    }
    await next();
  };
}
