/**
 * The one table from an API server answer (HTTP status + Status object) or a transport failure
 * to a `KubeError` kind. 409 is split by the Status `reason`: `AlreadyExists` for creates,
 * `Conflict` (stale resourceVersion) otherwise.
 */
import { KubeErrorKind, type KubeError } from './types.js';

/** The parts of a Kubernetes `Status` body the mapping reads. */
interface StatusBody {
  readonly message?: unknown;
  readonly reason?: unknown;
}

function parseBody(body: unknown): StatusBody {
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : { message: body };
    } catch {
      return { message: body };
    }
  }
  return typeof body === 'object' && body !== null ? (body as StatusBody) : {};
}

export function kindForStatus(status: number, reason: string): KubeErrorKind {
  if (status === 404) return KubeErrorKind.NotFound;
  if (status === 409) return reason === 'AlreadyExists' ? KubeErrorKind.AlreadyExists : KubeErrorKind.Conflict;
  if (status === 410) return KubeErrorKind.Gone;
  if (status === 400 || status === 422) return KubeErrorKind.Invalid;
  if (status === 401 || status === 403) return KubeErrorKind.Forbidden;
  if (status === 429 || status >= 500) return KubeErrorKind.Unavailable;
  return KubeErrorKind.Unexpected;
}

/** A non-2xx answer with its body (a Status object, as JSON text or parsed). */
export function errorFromResponse(status: number, body: unknown, cause?: unknown): KubeError {
  const s = parseBody(body);
  const reason = typeof s.reason === 'string' ? s.reason : '';
  const message = typeof s.message === 'string' && s.message !== '' ? s.message : `HTTP ${status}`;
  return { kind: kindForStatus(status, reason), status, message, cause };
}

/** Anything thrown by a client call: an HTTP answer when it carries a status code, else unreachable. */
export function errorFromThrown(thrown: unknown): KubeError {
  if (typeof thrown === 'object' && thrown !== null) {
    const t = thrown as { code?: unknown; statusCode?: unknown; body?: unknown; message?: unknown };
    const status = typeof t.code === 'number' ? t.code : typeof t.statusCode === 'number' ? t.statusCode : 0;
    if (status >= 100) return errorFromResponse(status, t.body, thrown);
    const message = typeof t.message === 'string' ? t.message : String(thrown);
    return { kind: KubeErrorKind.Unreachable, status: 0, message, cause: thrown };
  }
  return { kind: KubeErrorKind.Unreachable, status: 0, message: String(thrown), cause: thrown };
}
