/**
 * `/v2/keys[/<key>]` (etcd's keysHandler, ETCD-FACTS §5.6).
 *
 * Order of checks, as in etcd: unclean path → 301 (Go's mux); method other than
 * HEAD/GET/PUT/POST/DELETE → 405 (`Allow`, plain text); then `X-Etcd-Cluster-ID` is set
 * on every answer; parameters are read and checked (v2 error, index 0); with v2 auth enabled,
 * the user must have access to the key (else 401, errorCode 110 `Insufficient credentials`,
 * auth-access.ts); the request is proposed (writes, quorum reads), read locally, or watched.
 *
 * Answers: an event → 201 for create or a set that created the key, else 200, with
 * `X-Etcd-Index` (event index), `X-Raft-Index`, `X-Raft-Term`; a v2 error → its status
 * (error-status.ts) with `X-Etcd-Index` = its index, cause without the `/1` prefix; a
 * failure to replicate → 500, errorCode 300.
 */
import type { Context, Middleware } from 'koa';
import type { DomainError } from '../../../errors/domain-error.js';
import { isV2Error, v2Error, V2ErrorCode, type V2Error } from '../../../v2store/errors.js';
import { V2Action, type V2Event } from '../../../v2store/types.js';
import { sendMethodNotAllowed, sendPlainError } from '../plain-http-error.js';
import { hasKeyPrefixAccess, type V2AuthAccess } from './auth-access.js';
import { raftInternalError, v2HttpStatus } from './error-status.js';
import { readForm } from './form.js';
import { decodePath, muxCleanPath, redirectToClean } from './go-path.js';
import { parseKeyRequest, type KeyAction } from './key-request.js';
import { serveKeyWatch } from './key-watch.js';
import type { V2Port } from './port.js';
import { errorBody, eventBody, KEYS_PREFIX } from './wire-json.js';

export const KEYS_PATH = '/v2/keys';
const ALLOWED = ['HEAD', 'GET', 'PUT', 'POST', 'DELETE'];

export interface KeysHandlerDeps {
  readonly port: V2Port;
  /** Wall clock (ms) used to turn `ttl` into an absolute expiration. */
  readonly now: () => number;
  /** etcd's error text for a failure to replicate (the cause of error 300). */
  readonly describe: (e: DomainError) => string;
  /** v2 auth: who may read or write which key (none: everyone). */
  readonly access?: V2AuthAccess;
}

export function keysHandler(deps: KeysHandlerDeps): Middleware {
  const { port } = deps;
  return async (ctx) => {
    const decoded = decodePath(ctx.path);
    if (decoded === undefined) return sendPlainError(ctx, 400, 'Bad Request');
    const clean = muxCleanPath(decoded);
    if (clean !== decoded) return redirectToClean(ctx, clean);
    if (!ALLOWED.includes(ctx.method)) return sendMethodNotAllowed(ctx, ALLOWED.join(','));
    ctx.set('X-Etcd-Cluster-ID', port.clusterIdHex);

    const form = await readForm(ctx.req, ctx.method, ctx.querystring);
    if (form === undefined) return;
    if (!form.ok) return sendKeyError(ctx, v2Error(V2ErrorCode.InvalidForm, form.error, 0n));
    const parsed = parseKeyRequest(ctx.method, decoded.slice(KEYS_PATH.length), form.form, deps.now());
    if (!parsed.ok) return sendKeyError(ctx, parsed.error);
    const action = parsed.action;
    if (deps.access !== undefined && !(await hasKeyPrefixAccess(deps.access, ctx.req, decoded.slice(KEYS_PATH.length), isRecursive(action)))) {
      return sendKeyError(ctx, v2Error(V2ErrorCode.Unauthorized, 'Insufficient credentials', 0n));
    }

    switch (action.kind) {
      case 'write': {
        const r = await port.propose(action.req);
        if (!r.ok) return sendKeyError(ctx, raftInternalError(r.error, deps.describe));
        return sendOutcome(ctx, port, r.value, action.noValueOnSuccess);
      }
      case 'read':
        return sendOutcome(ctx, port, port.read(action.path, { recursive: action.recursive, sorted: action.sorted }), action.noValueOnSuccess);
      case 'watch': {
        const refused = await serveKeyWatch(ctx, port, action);
        if (refused) sendKeyError(ctx, trimCause(refused));
        return;
      }
    }
  };
}

const isRecursive = (a: KeyAction): boolean => (a.kind === 'write' ? a.req.recursive === true : a.recursive);

function sendOutcome(ctx: Context, port: V2Port, outcome: V2Event | V2Error, noValueOnSuccess: boolean): void {
  if (isV2Error(outcome)) return sendKeyError(ctx, trimCause(outcome));
  const created = outcome.action === V2Action.Create || (outcome.action === V2Action.Set && outcome.prevNode === undefined);
  ctx.status = created ? 201 : 200;
  ctx.set('Content-Type', 'application/json');
  ctx.set('X-Etcd-Index', outcome.etcdIndex.toString());
  ctx.set('X-Raft-Index', port.raftIndex().toString());
  ctx.set('X-Raft-Term', port.raftTerm().toString());
  ctx.body = eventBody(outcome, noValueOnSuccess);
}

function sendKeyError(ctx: Context, e: V2Error): void {
  ctx.status = v2HttpStatus(e.errorCode);
  ctx.set('Content-Type', 'application/json');
  ctx.set('X-Etcd-Index', e.index.toString());
  ctx.body = errorBody(e);
}

/** Store errors name store paths; clients see user keys (etcd's trimErrorPrefix). */
function trimCause(e: V2Error): V2Error {
  if (e.cause === undefined || !e.cause.startsWith(KEYS_PREFIX)) return e;
  return v2Error(e.errorCode, e.cause.slice(KEYS_PREFIX.length), e.index);
}
