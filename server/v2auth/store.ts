/**
 * etcd 3.4's v2 auth store over kvstore's v2 store: users at `/2/users/<name>`, roles at
 * `/2/roles/<name>`, the switch at `/2/enabled` (`true`/`false`), each a v2 node whose value is
 * the record's JSON (codec.ts). Writes go through the log as v2 requests, so every member holds
 * the same records; reads are local, or through the log (`quorum`) where etcd reads them so.
 *
 * Contract:
 * - before its first write a member makes sure `/2`, `/2/users/`, `/2/roles/` and
 *   `/2/enabled=false` exist, one create each (an existing one is fine), as etcd does once per
 *   process; the remembered "done" lives in this object, built once per member;
 * - outcomes are values: `AuthRefusal` (status + etcd's `auth: …` text), a v2 store error
 *   (`StoreError`, answered as a v2 error), or `Internal` (answered 500);
 * - the root user always carries the root role; the root role is the built-in constant and
 *   cannot be created, changed or deleted; `enable` creates the guest role when it is missing.
 */
import type { DomainError, Result } from '../errors/domain-error.js';
import { isV2Error, V2ErrorCode, type V2Error } from '../v2store/errors.js';
import { V2Method, type V2Event, type V2Request } from '../v2store/types.js';
import { decodeRole, decodeUser, encodeRole, encodeUser, parseStored, type Plain } from './codec.js';
import { mergeRole, mergeUser, sameRole, sameUser, withRootRole } from './merge.js';
import { GUEST, GUEST_ROLE, refusal, ROOT, ROOT_ROLE, type AuthRefusal, type V2Role, type V2User } from './types.js';

export type AuthFailure = AuthRefusal | { readonly kind: 'StoreError'; readonly error: V2Error } | { readonly kind: 'Internal'; readonly cause: string };
export type AuthResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AuthFailure };

export interface V2AuthPort {
  /** A local read of a store path (no log). */
  read(path: string): V2Event | V2Error;
  /** A v2 request through the log (writes, and GET as a quorum read). */
  propose(req: V2Request): Promise<Result<V2Event | V2Error>>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
}

const PREFIX = '/2';
const ok = <T>(value: T): AuthResult<T> => ({ ok: true, value });
const fail = <T = never>(error: AuthFailure): AuthResult<T> => ({ ok: false, error });
const storeError = (error: V2Error): AuthFailure => ({ kind: 'StoreError', error });
const internal = (e: DomainError): AuthFailure => ({ kind: 'Internal', cause: e.kind });
const notFound = (x: AuthResult<unknown>): boolean => !x.ok && x.error.kind === 'StoreError' && x.error.error.errorCode === V2ErrorCode.KeyNotFound;
const exists = (x: AuthResult<unknown>): boolean => !x.ok && x.error.kind === 'StoreError' && x.error.error.errorCode === V2ErrorCode.NodeExist;

export class V2AuthStore {
  private ensured = false;

  constructor(
    private readonly port: V2AuthPort,
    private readonly passwords: PasswordHasher,
  ) {}

  enabled(): boolean {
    const r = this.port.read(`${PREFIX}/enabled`);
    return !isV2Error(r) && r.node.value === 'true';
  }

  async allUsers(): Promise<AuthResult<string[]>> {
    return this.children('/users', []);
  }

  async allRoles(): Promise<AuthResult<string[]>> {
    const r = await this.children('/roles', []);
    return r.ok ? ok([ROOT, ...r.value].sort()) : r;
  }

  getUser(name: string, quorum = false): Promise<AuthResult<V2User>> {
    return this.getRecord(`/users/${name}`, quorum, decodeUser, `User ${name} does not exist.`).then((r) => (r.ok ? ok(withRootRole(r.value)) : r));
  }

  async getRole(name: string, quorum = false): Promise<AuthResult<V2Role>> {
    if (name === ROOT) return ok(ROOT_ROLE);
    return this.getRecord(`/roles/${name}`, quorum, decodeRole, `Role ${name} does not exist.`);
  }

  async checkPassword(user: V2User, password: string): Promise<boolean> {
    return user.password !== '' && (await this.passwords.compare(password, user.password));
  }

  /** A PUT naming no roles: an update when the user exists, else a create (`created`). */
  async createOrUpdateUser(u: V2User): Promise<AuthResult<{ user: V2User; created: boolean }>> {
    if ((await this.getUser(u.user, true)).ok) {
      const r = await this.updateUser(u);
      return r.ok ? ok({ user: r.value, created: false }) : r;
    }
    const r = await this.createUser(u);
    return r.ok ? ok({ user: r.value, created: true }) : r;
  }

  async createUser(given: V2User): Promise<AuthResult<V2User>> {
    const u = withRootRole(given);
    if (u.password === '') return fail(refusal(400, `Cannot create user ${u.user} with an empty password`));
    const stored = { ...u, password: await this.passwords.hash(u.password) };
    const r = await this.setRecord(`/users/${u.user}`, encodeUser(stored), false);
    if (exists(r)) return fail(refusal(409, `User ${u.user} already exists.`));
    return r.ok ? ok(stored) : r;
  }

  async updateUser(change: V2User): Promise<AuthResult<V2User>> {
    const old = await this.getUser(change.user, true);
    if (!old.ok) return old;
    const hash = change.password === '' ? undefined : await this.passwords.hash(change.password);
    const merged = mergeUser(old.value, change, hash);
    if (!merged.ok) return fail(merged.error);
    if (sameUser(old.value, merged.value)) return fail(refusal(400, 'User not updated. Use grant/revoke/password to update the user.'));
    const r = await this.setRecord(`/users/${change.user}`, encodeUser(merged.value), true);
    return r.ok ? ok(merged.value) : r;
  }

  async deleteUser(name: string): Promise<AuthResult<void>> {
    if (name === ROOT && this.enabled()) return fail(refusal(403, 'Cannot delete root user while auth is enabled.'));
    const r = await this.deleteRecord(`/users/${name}`);
    return notFound(r) ? fail(refusal(404, `User ${name} does not exist`)) : r;
  }

  async createRole(role: V2Role): Promise<AuthResult<void>> {
    if (role.role === ROOT) return fail(refusal(403, `Cannot modify role ${role.role}: is root role.`));
    const r = await this.setRecord(`/roles/${role.role}`, encodeRole(role), false);
    if (exists(r)) return fail(refusal(409, `Role ${role.role} already exists.`));
    return r.ok ? ok(undefined) : r;
  }

  async updateRole(change: V2Role): Promise<AuthResult<V2Role>> {
    if (change.role === ROOT) return fail(refusal(403, `Cannot modify role ${change.role}: is root role.`));
    const old = await this.getRole(change.role, true);
    if (!old.ok) return old;
    const merged = mergeRole(old.value, change);
    if (!merged.ok) return fail(merged.error);
    if (sameRole(old.value, merged.value)) return fail(refusal(400, 'Role not updated. Use grant/revoke to update the role.'));
    const r = await this.setRecord(`/roles/${change.role}`, encodeRole(merged.value), true);
    return r.ok ? ok(merged.value) : r;
  }

  async deleteRole(name: string): Promise<AuthResult<void>> {
    if (name === ROOT) return fail(refusal(403, `Cannot modify role ${name}: is root role.`));
    const r = await this.deleteRecord(`/roles/${name}`);
    return notFound(r) ? fail(refusal(404, `Role ${name} doesn't exist.`)) : r;
  }

  async enable(): Promise<AuthResult<void>> {
    if (this.enabled()) return fail(refusal(409, 'already enabled'));
    if (!(await this.getUser(ROOT, true)).ok) return fail(refusal(409, 'No root user available, please create one'));
    if (!(await this.getRole(GUEST, true)).ok) {
      const created = await this.createRole(GUEST_ROLE);
      if (!created.ok) return created;
    }
    const r = await this.setRecord('/enabled', 'true', true);
    return r.ok ? ok(undefined) : r;
  }

  async disable(): Promise<AuthResult<void>> {
    if (!this.enabled()) return fail(refusal(409, 'already disabled'));
    const r = await this.setRecord('/enabled', 'false', true);
    return r.ok ? ok(undefined) : r;
  }

  private async children(dir: string, none: string[]): Promise<AuthResult<string[]>> {
    const r = this.port.read(`${PREFIX}${dir}`);
    if (isV2Error(r)) return r.errorCode === V2ErrorCode.KeyNotFound ? ok(none) : fail(storeError(r));
    return ok((r.node.nodes ?? []).map((n) => n.key.slice(n.key.lastIndexOf('/') + 1)).sort());
  }

  private async getRecord<T>(res: string, quorum: boolean, decode: (v: Plain) => T | undefined, missing: string): Promise<AuthResult<T>> {
    const r = await this.request({ method: V2Method.Get, path: PREFIX + res }, quorum);
    if (!r.ok) return notFound(r) ? fail(refusal(404, missing)) : r;
    const value = parseStored(r.value.node.value ?? '', decode);
    return value === undefined ? fail({ kind: 'Internal', cause: `stored ${res} is not valid` }) : ok(value);
  }

  private async request(req: V2Request, viaLog: boolean): Promise<AuthResult<V2Event>> {
    if (!viaLog) {
      const r = this.port.read(req.path);
      return isV2Error(r) ? fail(storeError(r)) : ok(r);
    }
    const r = await this.port.propose(req);
    if (!r.ok) return fail(internal(r.error));
    return isV2Error(r.value) ? fail(storeError(r.value)) : ok(r.value);
  }

  private async setRecord(res: string, value: string, prevExist: boolean): Promise<AuthResult<V2Event>> {
    const ensured = await this.ensureDirectories();
    if (!ensured.ok) return ensured;
    return this.request({ method: V2Method.Put, path: PREFIX + res, value, prevExist }, true);
  }

  private async deleteRecord(res: string): Promise<AuthResult<void>> {
    const ensured = await this.ensureDirectories();
    if (!ensured.ok) return ensured;
    const r = await this.request({ method: V2Method.Delete, path: PREFIX + res, prevExist: true }, true);
    return r.ok ? ok(undefined) : r;
  }

  private async ensureDirectories(): Promise<AuthResult<void>> {
    if (this.ensured) return ok(undefined);
    for (const dir of [PREFIX, `${PREFIX}/users/`, `${PREFIX}/roles/`]) {
      const r = await this.request({ method: V2Method.Put, path: dir, dir: true, prevExist: false }, true);
      if (!r.ok && !exists(r)) return r;
    }
    const r = await this.request({ method: V2Method.Put, path: `${PREFIX}/enabled`, value: 'false', prevExist: false }, true);
    if (!r.ok && !exists(r)) return r;
    this.ensured = true;
    return ok(undefined);
  }
}
