/**
 * `/version` (ETCD-FACTS §5.1): GET only (anything else: 405, `Allow: GET`); body
 * `{"etcdserver":"<binary version>","etcdcluster":"<cluster version or not_decided>"}`,
 * `application/json`, no trailing newline. The JSON keys keep etcd's spelling (wire contract).
 */
import type { Middleware } from 'koa';
import type { MemberInfo } from '../services.js';
import { sendMethodNotAllowed } from './plain-http-error.js';

export function versionBody(info: MemberInfo): string {
  return JSON.stringify({ etcdserver: info.serverVersion, etcdcluster: info.clusterVersion() });
}

export function versionHandler(info: MemberInfo): Middleware {
  return (ctx) => {
    if (ctx.method !== 'GET') return sendMethodNotAllowed(ctx, 'GET');
    ctx.status = 200;
    ctx.set('Content-Type', 'application/json');
    ctx.body = versionBody(info);
  };
}
