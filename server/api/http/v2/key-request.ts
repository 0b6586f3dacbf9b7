/**
 * `/v2/keys` parameters → what to do (etcd's parseKeyRequest and RequestV2.Handle), pure.
 *
 * Contract:
 * - the checks run in etcd's order and fail with its codes and causes, index 0:
 *   prevIndex/waitIndex (203), recursive/sorted/wait/dir/quorum/stream (209), wait on a
 *   non-GET (209), empty prevValue (201), noValueOnSuccess (209), ttl (202),
 *   prevExist (209), refresh (209), refresh with a value (211) or without ttl (212);
 * - booleans are Go's strconv.ParseBool (1 t T TRUE true True / 0 f F FALSE false False),
 *   indices and ttl unsigned 64-bit decimals; an empty `ttl` means none;
 * - the key `k` is stored as path.Join('/1', k);
 * - PUT/POST/DELETE become a replicated write; GET with quorum=true a replicated read (even
 *   with wait=true, as in etcd); GET with wait=true a watch; other GET/HEAD a local read.
 */
import { v2Error, V2ErrorCode, type V2Error } from '../../../v2store/errors.js';
import { expirationFromTtl } from '../../../v2store/expiration.js';
import { cleanPath } from '../../../v2store/path.js';
import { V2Method, type V2Request } from '../../../v2store/types.js';
import type { FormValues } from './form.js';
import { KEYS_PREFIX } from './wire-json.js';

export type KeyAction =
  | { readonly kind: 'write'; readonly req: V2Request; readonly noValueOnSuccess: boolean }
  | { readonly kind: 'read'; readonly path: string; readonly recursive: boolean; readonly sorted: boolean; readonly noValueOnSuccess: boolean }
  | { readonly kind: 'watch'; readonly path: string; readonly recursive: boolean; readonly stream: boolean; readonly sinceIndex: bigint };

export type ParsedKeyRequest = { readonly ok: true; readonly action: KeyAction } | { readonly ok: false; readonly error: V2Error };

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);
const UINT64_MAX = (1n << 64n) - 1n;

const bad = (code: V2ErrorCode, cause: string): ParsedKeyRequest => ({ ok: false, error: v2Error(code, cause, 0n) });

/** Absent → 0; present → the parsed value, or undefined when malformed. */
function uintParam(form: FormValues, name: string): bigint | undefined {
  return form.has(name) ? parseUint64(form.first(name)) : 0n;
}

function boolParam(form: FormValues, name: string): boolean | undefined {
  if (!form.has(name)) return false;
  const v = form.first(name);
  return TRUE.has(v) ? true : FALSE.has(v) ? false : undefined;
}

const BOOL_FLAGS = ['recursive', 'sorted', 'wait', 'dir', 'quorum', 'stream'] as const;
type BoolFlag = (typeof BOOL_FLAGS)[number];

export function parseKeyRequest(method: string, key: string, form: FormValues, nowMs: number): ParsedKeyRequest {
  const path = cleanPath(`${KEYS_PREFIX}/${key}`);
  const prevIndex = uintParam(form, 'prevIndex');
  if (prevIndex === undefined) return bad(V2ErrorCode.IndexNaN, 'invalid value for "prevIndex"');
  const waitIndex = uintParam(form, 'waitIndex');
  if (waitIndex === undefined) return bad(V2ErrorCode.IndexNaN, 'invalid value for "waitIndex"');
  const flags = {} as Record<BoolFlag, boolean>;
  for (const name of BOOL_FLAGS) {
    const v = boolParam(form, name);
    if (v === undefined) return bad(V2ErrorCode.InvalidField, `invalid value for "${name}"`);
    flags[name] = v;
  }
  const { recursive, sorted, wait, dir, quorum, stream } = flags;
  if (wait && method !== 'GET') return bad(V2ErrorCode.InvalidField, '"wait" can only be used with GET requests');
  const prevValue = form.first('prevValue');
  if (form.has('prevValue') && prevValue === '') return bad(V2ErrorCode.PrevValueRequired, '"prevValue" cannot be empty');
  const noValueOnSuccess = boolParam(form, 'noValueOnSuccess');
  if (noValueOnSuccess === undefined) return bad(V2ErrorCode.InvalidField, 'invalid value for "noValueOnSuccess"');
  const ttl = form.first('ttl') === '' ? undefined : parseUint64(form.first('ttl'));
  if (form.first('ttl') !== '' && ttl === undefined) return bad(V2ErrorCode.TtlNaN, 'invalid value for "ttl"');
  const prevExist = form.has('prevExist') ? boolParam(form, 'prevExist') : false;
  if (prevExist === undefined) return bad(V2ErrorCode.InvalidField, 'invalid value for prevExist');
  const refresh = form.has('refresh') ? boolParam(form, 'refresh') : false;
  if (refresh === undefined) return bad(V2ErrorCode.InvalidField, 'invalid value for refresh');
  if (refresh && form.first('value') !== '') return bad(V2ErrorCode.RefreshValue, 'A value was provided on a refresh');
  if (refresh && ttl === undefined) return bad(V2ErrorCode.RefreshTtlRequired, 'No TTL value set');

  const action = (a: KeyAction): ParsedKeyRequest => ({ ok: true, action: a });
  if (method === 'GET' && quorum) return action({ kind: 'write', req: { method: V2Method.Get, path, recursive, sorted }, noValueOnSuccess });
  if (method === 'GET' && wait) return action({ kind: 'watch', path, recursive, stream, sinceIndex: waitIndex });
  if (method === 'GET' || method === 'HEAD') return action({ kind: 'read', path, recursive, sorted, noValueOnSuccess });

  const expiration = ttl === undefined ? undefined : expirationFromTtl(ttl, nowMs);
  const req: V2Request = {
    method: method as V2Method,
    path,
    value: form.first('value'),
    dir,
    prevValue,
    prevIndex,
    recursive,
    ...(form.has('prevExist') ? { prevExist } : {}),
    ...(form.has('refresh') ? { refresh } : {}),
    ...(expiration !== undefined ? { expiration } : {}),
  };
  return action({ kind: 'write', req, noValueOnSuccess });
}

/** Go's strconv.ParseUint(s, 10, 64). */
export function parseUint64(s: string): bigint | undefined {
  if (!/^[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v <= UINT64_MAX ? v : undefined;
}
