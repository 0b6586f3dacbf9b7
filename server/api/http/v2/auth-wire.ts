/**
 * Bodies of `/v2/auth/*`: request JSON read as Go's json.Decoder reads it into etcd's structs,
 * answers written as Go's json.Encoder writes them (Go's string escaping, newline at the end),
 * refusals as httptypes.HTTPError (`{"message":…}`, no newline) or a v2 store error.
 */
import type { Context } from 'koa';
import { decodeRole, decodeUser, encodeRole, encodeUser, type Plain } from '../../../v2auth/codec.js';
import type { AuthFailure } from '../../../v2auth/store.js';
import type { V2Role, V2User } from '../../../v2auth/types.js';
import { scanJson, type JsonValue } from '../go-json-scan.js';
import { readBody } from '../read-body.js';
import { v2HttpStatus } from './error-status.js';
import { errorBody, goString, messageBody } from './wire-json.js';

const MAX_BODY_BYTES = 8 << 20;

function plain(v: JsonValue): Plain {
  switch (v.kind) {
    case 'object':
      return { entries: v.entries.map(([k, x]) => [k, plain(x)] as const) };
    case 'array':
      return v.items.map(plain);
    case 'string':
      return v.value;
    case 'number':
      return Number(v.text);
    case 'bool':
      return v.value;
    case 'null':
      return null;
  }
}

/** The first JSON value of the body decoded into a record; undefined (and answered 400) when it cannot be. */
async function readRecord<T>(ctx: Context, decode: (v: Plain) => T | undefined): Promise<T | undefined> {
  const body = await readBody(ctx.req, MAX_BODY_BYTES);
  if (!body.ok && body.status === undefined) return undefined;
  const scanned = body.ok ? scanJson(body.text, 'decoder') : undefined;
  const value = scanned?.ok === true && scanned.value !== undefined ? decode(plain(scanned.value)) : undefined;
  if (value === undefined) sendMessage(ctx, 400, 'Invalid JSON in request body.');
  return value;
}

export const readUser = (ctx: Context): Promise<V2User | undefined> => readRecord(ctx, decodeUser);
export const readRole = (ctx: Context): Promise<V2Role | undefined> => readRecord(ctx, decodeRole);

export const userJson = (u: V2User): string => encodeUser(u, goString);
export const roleJson = (r: V2Role): string => encodeRole(r, goString);

/** etcd's `userWithRoles`: the user's name and its roles in full (left out when none). */
export function userWithRolesJson(user: string, roles: readonly V2Role[]): string {
  const list = roles.length === 0 ? '' : `,"roles":[${roles.map(roleJson).join(',')}]`;
  return `{"user":${goString(user)}${list}}`;
}

export function sendBody(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.set('Content-Type', 'application/json');
  ctx.body = body;
}

export function sendMessage(ctx: Context, status: number, message: string): void {
  sendBody(ctx, status, messageBody(message));
}

/** etcd's writeError for the auth API. */
export function sendFailure(ctx: Context, e: AuthFailure): void {
  switch (e.kind) {
    case 'AuthRefusal':
      return sendMessage(ctx, e.status, e.message);
    case 'StoreError':
      ctx.set('X-Etcd-Index', e.error.index.toString());
      return sendBody(ctx, v2HttpStatus(e.error.errorCode), errorBody(e.error));
    case 'Internal':
      return sendMessage(ctx, 500, 'Internal Server Error');
  }
}

/** 401 `Insufficient credentials` (httptypes.HTTPError; the keys API answers a v2 error instead). */
export function sendNoAuth(ctx: Context): void {
  sendMessage(ctx, 401, 'Insufficient credentials');
}
