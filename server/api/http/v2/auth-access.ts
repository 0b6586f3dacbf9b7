/**
 * Who a v2 request is, and what it may do, while v2 auth is enabled (etcd 3.4's
 * `hasRootAccess`, `hasWriteRootAccess`, `hasKeyPrefixAccess`).
 *
 * Contract:
 * - auth disabled: everything is allowed;
 * - a request with an `Authorization` header is the user of its HTTP basic credentials (a
 *   malformed header, an unknown user or a wrong password is nobody: refused);
 * - without the header, with `--client-cert-auth`, the user is the first Common Name of the
 *   verified client certificate chain (leaf first, then its issuers) that names a user;
 * - root access: the user holds the root role (reads of `/v2/auth/enable` and `/v2/members`
 *   need none: `hasWriteRootAccess`);
 * - key access: a request with no user falls back to the guest role (only the key itself,
 *   never recursive); a user needs one of its roles to grant the key, or, for a recursive
 *   request, a `*` pattern covering it. Writes are every method but GET and HEAD.
 */
import type { IncomingMessage } from 'node:http';
import { hasKeyAccess, hasRecursiveAccess } from '../../../v2auth/access.js';
import type { V2AuthStore } from '../../../v2auth/store.js';
import { GUEST, ROOT, type V2User } from '../../../v2auth/types.js';

export interface V2AuthAccess {
  readonly store: V2AuthStore;
  /** `--client-cert-auth`. */
  readonly clientCertAuth: boolean;
  /** Common Names of the verified client certificate chain, leaf first (empty without one). */
  readonly commonNames: (req: IncomingMessage) => readonly string[];
  /** The cluster version enables the auth capability (etcd: not before the version is known). */
  readonly capable: () => boolean;
}

const isWrite = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

/** Go's `Request.BasicAuth`. */
export function basicCredentials(header: string): { user: string; password: string } | undefined {
  if (header.length < 6 || header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const b64 = header.slice(6);
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return undefined;
  const text = Buffer.from(b64, 'base64').toString('latin1');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  const utf8 = (s: string): string => Buffer.from(s, 'latin1').toString('utf8');
  return { user: utf8(text.slice(0, colon)), password: utf8(text.slice(colon + 1)) };
}

async function userFromBasicAuth(a: V2AuthAccess, header: string): Promise<V2User | undefined> {
  const creds = basicCredentials(header);
  if (creds === undefined) return undefined;
  const user = await a.store.getUser(creds.user);
  if (!user.ok) return undefined;
  return (await a.store.checkPassword(user.value, creds.password)) ? user.value : undefined;
}

async function userFromCertificate(a: V2AuthAccess, req: IncomingMessage): Promise<V2User | undefined> {
  for (const cn of a.commonNames(req)) {
    const user = await a.store.getUser(cn);
    if (user.ok) return user.value;
  }
  return undefined;
}

const authorization = (req: IncomingMessage): string => req.headers.authorization ?? '';

export async function hasRootAccess(a: V2AuthAccess, req: IncomingMessage): Promise<boolean> {
  if (!a.store.enabled()) return true;
  const header = authorization(req);
  const user = header === '' && a.clientCertAuth ? await userFromCertificate(a, req) : await userFromBasicAuth(a, header);
  return user !== undefined && (user.roles ?? []).includes(ROOT);
}

export async function hasWriteRootAccess(a: V2AuthAccess, req: IncomingMessage): Promise<boolean> {
  if (!isWrite(req.method ?? 'GET')) return true;
  return hasRootAccess(a, req);
}

/** `key`: the user key of the URL (`/foo` for `/v2/keys/foo`). */
export async function hasKeyPrefixAccess(a: V2AuthAccess, req: IncomingMessage, key: string, recursive: boolean): Promise<boolean> {
  if (!a.store.enabled()) return true;
  const write = isWrite(req.method ?? 'GET');
  const header = authorization(req);
  let user: V2User | undefined;
  if (header === '') {
    if (a.clientCertAuth) user = await userFromCertificate(a, req);
    if (user === undefined) {
      const guest = await a.store.getRole(GUEST);
      return guest.ok && hasKeyAccess(guest.value, key, write);
    }
  } else {
    user = await userFromBasicAuth(a, header);
    if (user === undefined) return false;
  }
  for (const name of user.roles ?? []) {
    const role = await a.store.getRole(name);
    if (!role.ok) continue;
    if (recursive ? hasRecursiveAccess(role.value, key, write) : hasKeyAccess(role.value, key, write)) return true;
  }
  return false;
}
