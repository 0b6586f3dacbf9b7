/**
 * Kubernetes `Status` objects for errors, in the exact wire shape the API server sends
 * (kind Status, apiVersion v1, status Failure, message, reason, details, code).
 *
 * `qualified` is the resource as the API server names it in messages: `pods` for the core
 * group, `statefulsets.apps` otherwise.
 */
import type { JsonObject } from './types.js';

/** Which resource an error is about. */
export interface ErrorTarget {
  readonly group: string;
  readonly plural: string;
  readonly name: string;
}

/** An HTTP status with its Kubernetes Status body. */
export interface ApiError {
  readonly code: number;
  readonly body: JsonObject;
}

/** `pods` / `statefulsets.apps` */
export function qualified(group: string, plural: string): string {
  return group === '' ? plural : `${plural}.${group}`;
}

function details(t: ErrorTarget): JsonObject {
  const d: JsonObject = { name: t.name };
  if (t.group !== '') d.group = t.group;
  d.kind = t.plural;
  return d;
}

/** A Status body with the given code, reason and message. */
export function statusError(code: number, reason: string, message: string, detail?: JsonObject): ApiError {
  const body: JsonObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason };
  if (detail !== undefined) body.details = detail;
  body.code = code;
  return { code, body };
}

/** 404 `pods "x" not found` */
export function notFound(t: ErrorTarget): ApiError {
  return statusError(404, 'NotFound', `${qualified(t.group, t.plural)} "${t.name}" not found`, details(t));
}

/** 409 `pods "x" already exists` */
export function alreadyExists(t: ErrorTarget): ApiError {
  return statusError(409, 'AlreadyExists', `${qualified(t.group, t.plural)} "${t.name}" already exists`, details(t));
}

/** 409 on a stale resourceVersion (optimistic concurrency). */
export function conflict(t: ErrorTarget, why = 'the object has been modified; please apply your changes to the latest version and try again'): ApiError {
  return statusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(t.group, t.plural)} "${t.name}": ${why}`, details(t));
}

/** One field problem of a 422 Invalid. */
export interface FieldCause {
  readonly reason: string;
  readonly message: string;
  readonly field: string;
}

/** 422 `Pod "x" is invalid: field: message` (`StatefulSet.apps "x" …` outside the core group) */
export function invalid(kind: string, group: string, name: string, causes: readonly FieldCause[]): ApiError {
  const text = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  const d: JsonObject = { name };
  if (group !== '') d.group = group;
  d.kind = kind;
  d.causes = causes.map((c) => ({ reason: c.reason, message: c.message, field: c.field }));
  return statusError(422, 'Invalid', `${group === '' ? kind : `${kind}.${group}`} "${name}" is invalid: ${text}`, d);
}

/** 410 for a watch from a resourceVersion older than the kept history. */
export function expired(requested: bigint, oldest: bigint): ApiError {
  return statusError(410, 'Expired', `too old resource version: ${requested} (${oldest})`);
}

/** 404 for a path the server does not serve. */
export function noRoute(): ApiError {
  return statusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** 400 */
export function badRequest(message: string): ApiError {
  return statusError(400, 'BadRequest', message);
}

/** 405 */
export function methodNotAllowed(): ApiError {
  return statusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

/** 415 */
export function unsupportedMediaType(type: string): ApiError {
  return statusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml; got ${type}`);
}
