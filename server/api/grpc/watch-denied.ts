/**
 * etcd's answer to a watch create refused by auth, on gRPC and on the gateway alike: the
 * response is `created` and `canceled` at once, with watch id -1, and its cancel reason is
 * the text of the gRPC status error, `rpc error: code = <Code> desc = <message>`. An invalid
 * or outdated token and a missing user keep their own error; any other refusal reads as
 * permission denied.
 */
import type { ResponseHeader, WatchResponse } from '../../../proto/gen/etcd/rpc.js';
import type { DomainError } from '../../errors/domain-error.js';
import { codeName } from './codes.js';
import { toStatus } from './error-table.js';

export function deniedWatchCreate(header: ResponseHeader, e: DomainError): WatchResponse {
  const kept = e.kind === 'InvalidAuthToken' || e.kind === 'AuthOldRevision' || e.kind === 'UserEmpty';
  const status = toStatus(kept ? e : { kind: 'PermissionDenied' });
  return {
    header,
    watchId: -1n,
    created: true,
    canceled: true,
    compactRevision: 0n,
    cancelReason: `rpc error: code = ${codeName(status.code)} desc = ${status.message}`,
    fragment: false,
    events: [],
  };
}
