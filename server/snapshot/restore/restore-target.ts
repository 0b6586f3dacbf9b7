/**
 * The new membership of a restore from its flag texts (--name, --initial-cluster,
 * --initial-cluster-token, --initial-advertise-peer-urls), parsed as the server parses them.
 * Pure; the texts of the failures are the server's configuration errors.
 */
import { parseInitialCluster } from '../../config/initial-cluster.js';
import { parseUrlList } from '../../config/urls.js';
import type { RestoreTarget } from './restore-plan.js';

export interface RestoreTargetText {
  readonly name: string;
  readonly initialCluster: string;
  readonly initialClusterToken: string;
  readonly initialAdvertisePeerUrls: string;
}

export type TargetOutcome = { readonly ok: true; readonly target: RestoreTarget } | { readonly ok: false; readonly message: string };

export function parseRestoreTarget(t: RestoreTargetText): TargetOutcome {
  const urls = parseUrlList(t.initialAdvertisePeerUrls, { bind: false });
  if (!urls.ok) return { ok: false, message: urls.reason };
  const cluster = parseInitialCluster(t.initialCluster);
  if (!cluster.ok) return { ok: false, message: cluster.reason };
  return {
    ok: true,
    target: { name: t.name, initialCluster: cluster.members, initialClusterToken: t.initialClusterToken, initialAdvertisePeerUrls: urls.urls },
  };
}
