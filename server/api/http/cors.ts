/**
 * etcd's default CORS wrapper (`--cors=*`): every response carries
 * `Access-Control-Allow-Origin: *`, `Access-Control-Allow-Methods: POST, GET, OPTIONS, PUT, DELETE`
 * and `Access-Control-Allow-Headers: accept, content-type, authorization`; an OPTIONS request
 * on any path is answered 200 with an empty body and nothing else runs.
 */
import type { Middleware } from 'koa';

export function allowAnyOrigin(): Middleware {
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Allow-Methods', 'POST, GET, OPTIONS, PUT, DELETE');
    ctx.set('Access-Control-Allow-Headers', 'accept, content-type, authorization');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 200;
      ctx.body = '';
      return;
    }
    await next();
  };
}
