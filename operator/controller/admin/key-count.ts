/**
 * Keys in a member's whole key space: a linearizable Range `['\0', '\0')` with count_only, as
 * root when the cluster has credentials (the client the status call chose). Used by the upgrade
 * rehearsal to compare a scratch member with its snapshot.
 */
import { portFail, portOk, type PortResult } from '../ports.js';
import type { GrpcCalls } from './grpc-calls.js';

export async function keyCount(calls: GrpcCalls, url: string, signal?: AbortSignal): Promise<PortResult<number>> {
  const r = await calls.clientFor(url).kv.get('', { fromKey: true, countOnly: true, serializable: false, ...(signal === undefined ? {} : { signal }) });
  return r.ok ? portOk(Number(r.value.count)) : portFail(`Range count_only at ${url}: ${r.error.message}`);
}
