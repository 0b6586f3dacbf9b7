/**
 * Outcome of a client call: a value, or an expected failure as a typed `ClientError`.
 *
 * Client calls never throw for anything the server or the network can do; `throw` is kept for
 * broken invariants (programming errors).
 */
import type { ClientError } from './errors.js';

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ClientError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: ClientError): Result<T> => ({ ok: false, error });
