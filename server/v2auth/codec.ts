/**
 * Users and roles as JSON, the way etcd 3.4's Go structs marshal and unmarshal them: the same
 * bytes for the values kept in the v2 store (`/2/users/<name>`, `/2/roles/<name>`) and for the
 * API's bodies.
 *
 * Encoding: fields in struct order; `password`, `grant`, `revoke` of a user left out when empty;
 * `grant`, `revoke` of a role left out when nil; lists `null` when nil. Strings are quoted by the
 * caller's quoter (Go's escaping at the HTTP edge; JSON.stringify is enough for stored values,
 * which no client reads).
 *
 * Decoding (`decodeUser`, `decodeRole`) takes a parsed value whose objects are lists of entries
 * in the order they were written, and follows Go's rules: keys match fields case-insensitively
 * (the last one wins), unknown keys are ignored, `null` leaves a field as it was (a nil list, a
 * nil pointer), a value of the wrong type fails the whole decode.
 */
import type { NameList, Permissions, RWPermission, V2Role, V2User } from './types.js';
import { emptyUser, NO_PERMISSIONS } from './types.js';

export type Quote = (s: string) => string;

const list = (l: NameList, q: Quote): string => (l === null ? 'null' : `[${l.map(q).join(',')}]`);
const perms = (p: Permissions, q: Quote): string => `{"kv":{"read":${list(p.kv.read, q)},"write":${list(p.kv.write, q)}}}`;

export function encodeUser(u: V2User, q: Quote = JSON.stringify): string {
  let s = `{"user":${q(u.user)}`;
  if (u.password !== '') s += `,"password":${q(u.password)}`;
  s += `,"roles":${list(u.roles, q)}`;
  if ((u.grant ?? []).length > 0) s += `,"grant":${list(u.grant, q)}`;
  if ((u.revoke ?? []).length > 0) s += `,"revoke":${list(u.revoke, q)}`;
  return `${s}}`;
}

export function encodeRole(r: V2Role, q: Quote = JSON.stringify): string {
  let s = `{"role":${q(r.role)},"permissions":${perms(r.permissions, q)}`;
  if (r.grant !== undefined) s += `,"grant":${perms(r.grant, q)}`;
  if (r.revoke !== undefined) s += `,"revoke":${perms(r.revoke, q)}`;
  return `${s}}`;
}

/** A parsed JSON value: objects keep their entries in order (duplicates included). */
export type Plain = null | boolean | number | string | readonly Plain[] | { readonly entries: ReadonlyArray<readonly [string, Plain]> };

/** Plain value of `JSON.parse` output (stored values: no duplicate keys). */
export function plainOf(v: unknown): Plain {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(plainOf);
  return { entries: Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, plainOf(x)] as const) };
}

class TypeMismatch extends Error {}

const isObject = (v: Plain): v is { readonly entries: ReadonlyArray<readonly [string, Plain]> } =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function fields(v: Plain, on: (name: string, x: Plain) => void): void {
  if (v === null) return;
  if (!isObject(v)) throw new TypeMismatch();
  for (const [k, x] of v.entries) on(k.toLowerCase(), x);
}

function str(x: Plain, was: string): string {
  if (x === null) return was;
  if (typeof x !== 'string') throw new TypeMismatch();
  return x;
}

function names(x: Plain): NameList {
  if (x === null) return null;
  if (!Array.isArray(x)) throw new TypeMismatch();
  return x.map((e: Plain) => str(e, ''));
}

function rw(x: Plain, was: RWPermission): RWPermission {
  let { read, write } = was;
  fields(x, (k, v) => {
    if (k === 'read') read = names(v);
    else if (k === 'write') write = names(v);
  });
  return { read, write };
}

function permissions(x: Plain, was: Permissions): Permissions {
  let kv = was.kv;
  fields(x, (k, v) => {
    if (k === 'kv') kv = rw(v, kv);
  });
  return { kv };
}

const pointer = (x: Plain, was: Permissions | undefined): Permissions | undefined => (x === null ? undefined : permissions(x, was ?? NO_PERMISSIONS));

export function decodeUser(v: Plain): V2User | undefined {
  try {
    let u = emptyUser('');
    fields(v, (k, x) => {
      if (k === 'user') u = { ...u, user: str(x, u.user) };
      else if (k === 'password') u = { ...u, password: str(x, u.password) };
      else if (k === 'roles') u = { ...u, roles: names(x) };
      else if (k === 'grant') u = { ...u, grant: names(x) };
      else if (k === 'revoke') u = { ...u, revoke: names(x) };
    });
    return u;
  } catch (e) {
    if (e instanceof TypeMismatch) return undefined;
    throw e;
  }
}

export function decodeRole(v: Plain): V2Role | undefined {
  try {
    let role = '';
    let perms = NO_PERMISSIONS;
    let grant: Permissions | undefined;
    let revoke: Permissions | undefined;
    fields(v, (k, x) => {
      if (k === 'role') role = str(x, role);
      else if (k === 'permissions') perms = permissions(x, perms);
      else if (k === 'grant') grant = pointer(x, grant);
      else if (k === 'revoke') revoke = pointer(x, revoke);
    });
    return { role, permissions: perms, ...(grant === undefined ? {} : { grant }), ...(revoke === undefined ? {} : { revoke }) };
  } catch (e) {
    if (e instanceof TypeMismatch) return undefined;
    throw e;
  }
}

/** A stored value (written by `encodeUser`/`encodeRole`); undefined when it is not valid JSON of the shape. */
export function parseStored<T>(text: string, decode: (v: Plain) => T | undefined): T | undefined {
  try {
    return decode(plainOf(JSON.parse(text)));
  } catch (e) {
    if (e instanceof SyntaxError) return undefined;
    throw e;
  }
}
