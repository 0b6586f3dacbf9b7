/**
 * `/v2/members[/<id>|/leader]` (etcd's membersHandler, ETCD-FACTS §5.7) and
 * `/v2/machines`.
 *
 * Contract:
 * - methods GET/POST/DELETE/PUT (else 405, `Allow: GET,POST,DELETE,PUT`); with v2 auth
 *   enabled, changes need a user with the root role (401 `Insufficient credentials`); then
 *   `X-Etcd-Cluster-ID` on every answer;
 * - GET `/v2/members` → `{"members":[…]}` sorted by id; `/leader` → the leader or 503
 *   `During election`; anything else → 404 `Not found`;
 * - POST/PUT bodies must be `application/json` (415 otherwise) with valid peer URLs (400,
 *   member-request.ts); DELETE/PUT need an id in the path (405 plain text without), a hex
 *   id (404 `No such member: <given>` when unparsable);
 * - outcomes: 201 + member (POST), 204 (DELETE, PUT); 409 for an existing id or peer URL,
 *   404 unknown id, 410 removed id, 500 `Internal Server Error` for anything else;
 * - error bodies are `{"message":…}` without newline; success bodies end with a newline.
 */
import type { Context, Middleware } from 'koa';
import { sendMethodNotAllowed, sendPlainError } from '../plain-http-error.js';
import { readBody } from '../read-body.js';
import { hasWriteRootAccess, type V2AuthAccess } from './auth-access.js';
import { decodePath } from './go-path.js';
import { parsePeerUrlsBody } from './member-request.js';
import type { MemberResult, V2Port } from './port.js';
import { memberJson, messageBody } from './wire-json.js';

export const MEMBERS_PATH = '/v2/members';
const ALLOWED = ['GET', 'POST', 'DELETE', 'PUT'];
const MAX_MEMBER_BODY_BYTES = 1 << 20;
const UINT64_MAX = (1n << 64n) - 1n;

export function membersHandler(port: V2Port, access?: V2AuthAccess): Middleware {
  return async (ctx) => {
    if (!ALLOWED.includes(ctx.method)) return sendMethodNotAllowed(ctx, ALLOWED.join(','));
    if (access !== undefined && !(await hasWriteRootAccess(access, ctx.req))) return sendJson(ctx, 401, messageBody('Insufficient credentials'));
    ctx.set('X-Etcd-Cluster-ID', port.clusterIdHex);
    const sub = (decodePath(ctx.path) ?? ctx.path).slice(MEMBERS_PATH.length).replace(/^\//, '');
    switch (ctx.method) {
      case 'GET':
        return getMembers(ctx, port, sub);
      case 'POST': {
        const urls = await readPeerUrls(ctx);
        if (!urls) return;
        return sendMemberOutcome(ctx, await port.addMember(urls), undefined, (m) => sendJson(ctx, 201, `${memberJson(m)}\n`));
      }
      case 'DELETE': {
        const id = memberId(ctx, sub);
        if (id === undefined) return;
        return sendMemberOutcome(ctx, await port.removeMember(id), id, () => noContent(ctx));
      }
      default: {
        const id = memberId(ctx, sub);
        if (id === undefined) return;
        const urls = await readPeerUrls(ctx);
        if (!urls) return;
        return sendMemberOutcome(ctx, await port.updateMember(id, urls), id, () => noContent(ctx));
      }
    }
  };
}

/** `/v2/machines`: the client URLs of all members, joined with ", ". */
export function machinesHandler(port: V2Port): Middleware {
  return (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return sendMethodNotAllowed(ctx, 'GET,HEAD');
    ctx.status = 200;
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
    ctx.body = sortById(port.members()).flatMap((m) => m.clientURLs).join(', ');
  };
}

function getMembers(ctx: Context, port: V2Port, sub: string): void {
  if (sub === '') return sendJson(ctx, 200, `{"members":[${sortById(port.members()).map(memberJson).join(',')}]}\n`);
  if (sub === 'leader') {
    const leader = port.leader();
    if (!leader) return sendJson(ctx, 503, messageBody('During election'));
    return sendJson(ctx, 200, `${memberJson(leader)}\n`);
  }
  sendJson(ctx, 404, messageBody('Not found'));
}

function sendMemberOutcome<T>(ctx: Context, r: MemberResult<T>, id: bigint | undefined, onOk: (v: T) => void): void {
  if (r.ok) return onOk(r.value);
  const hex = id?.toString(16) ?? '';
  switch (r.error.kind) {
    case 'MemberIdExists':
      return sendJson(ctx, 409, messageBody('membership: ID exists'));
    case 'PeerUrlExists':
      return sendJson(ctx, 409, messageBody('membership: peerURL exists'));
    case 'MemberNotFound':
      return sendJson(ctx, 404, messageBody(`No such member: ${hex}`));
    case 'MemberRemoved':
      return sendJson(ctx, 410, messageBody(`Member permanently removed: ${hex}`));
    default:
      return sendJson(ctx, 500, messageBody('Internal Server Error'));
  }
}

/** The id in the path, or undefined once an answer has been sent. */
function memberId(ctx: Context, sub: string): bigint | undefined {
  if (sub === '') {
    sendPlainError(ctx, 405, 'Method Not Allowed');
    return undefined;
  }
  const id = /^[0-9a-fA-F]+$/.test(sub) ? BigInt(`0x${sub}`) : undefined;
  if (id === undefined || id > UINT64_MAX) {
    sendJson(ctx, 404, messageBody(`No such member: ${sub}`));
    return undefined;
  }
  return id;
}

/** The peer URLs of a JSON body, or undefined once an answer has been sent. */
async function readPeerUrls(ctx: Context): Promise<string[] | undefined> {
  let type = ctx.get('Content-Type');
  const semi = type.indexOf(';');
  if (semi >= 0) type = type.slice(0, semi).trim().toLowerCase();
  if (type !== 'application/json') {
    sendJson(ctx, 415, messageBody(`Bad Content-Type ${type}, accept application/json`));
    return undefined;
  }
  const body = await readBody(ctx.req, MAX_MEMBER_BODY_BYTES);
  if (!body.ok) {
    if (body.status) sendJson(ctx, 400, messageBody('http: request body too large'));
    return undefined;
  }
  const parsed = parsePeerUrlsBody(body.text);
  if (!parsed.ok) {
    sendJson(ctx, 400, messageBody(parsed.message));
    return undefined;
  }
  return parsed.peerURLs;
}

function sortById<T extends { readonly id: string }>(ms: readonly T[]): T[] {
  const key = (m: T): bigint => (/^[0-9a-f]+$/i.test(m.id) ? BigInt(`0x${m.id}`) : 0n);
  return [...ms].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function sendJson(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.set('Content-Type', 'application/json');
  ctx.body = body;
}

function noContent(ctx: Context): void {
  ctx.status = 204;
  ctx.body = null;
}
