/**
 * On restart a member logs the cluster-version history its log still holds (entries it had
 * applied before stopping), as the reference server does when it replays its log: "set
 * initial cluster version" for the first decision, "updated cluster version" for each raise,
 * each followed by "enabled capabilities for version". Entries after the applied index are
 * applied (and logged) normally.
 */
import type { Logger } from 'pino';
import { InternalRequest } from '../../proto/gen/kvstore/internal.js';
import { EntryType, type Entry } from '../raft/log-types.js';
import { hasTopLevelField } from './top-level-field.js';
import { majorMinor } from './versions.js';

/** InternalRequest's field number of `cluster_version_set` (proto/kvstore/internal.proto). */
const CLUSTER_VERSION_SET_FIELD = 13;

export function logVersionHistory(entries: readonly Entry[], appliedIndex: number, clusterIdHex: string, log: Logger): void {
  let previous: string | undefined;
  for (const e of entries) {
    if (e.index > appliedIndex || e.type !== EntryType.ENTRY_NORMAL || e.data.length === 0) continue;
    // Only decisions are decoded: the tags say which entries carry one.
    if (!hasTopLevelField(e.data, CLUSTER_VERSION_SET_FIELD)) continue;
    let req: InternalRequest;
    try {
      req = InternalRequest.decode(e.data);
    } catch {
      continue;
    }
    if (req.request?.$case !== 'clusterVersionSet') continue;
    const to = majorMinor(req.request.value.ver);
    if (to === undefined || to === previous) continue;
    if (previous === undefined) log.info({ 'cluster-id': clusterIdHex, 'cluster-version': to }, 'set initial cluster version');
    else log.info({ 'cluster-id': clusterIdHex, from: previous, to }, 'updated cluster version');
    log.info({ 'cluster-version': to }, 'enabled capabilities for version');
    previous = to;
  }
}
