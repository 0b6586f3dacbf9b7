/**
 * Names and closed sets of the `KvstoreCluster` API (`kvstore.io/v1alpha1`). types.ts re-exports
 * them; the schema files build their enums from them, so a value is listed in one place only.
 */

export const GROUP = 'kvstore.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'KvstoreCluster';
export const PLURAL = 'kvstoreclusters';
export const SINGULAR = 'kvstorecluster';
export const SHORT_NAMES = ['kvs'] as const;
/** Name of the CustomResourceDefinition object. */
export const CRD_NAME = `${PLURAL}.${GROUP}`;

/**
 * Finalizer the operator puts on every KvstoreCluster: it is removed once the pre-upgrade
 * snapshots of a deleted cluster have been dealt with (kept or pruned as configured).
 */
export const SNAPSHOTS_FINALIZER = 'kvstore.io/snapshots';

/** Allowed cluster sizes (odd, so a majority survives the loss of a minority). */
export const CLUSTER_SIZES = [1, 3, 5, 7] as const;

export const PHASES = ['Pending', 'Creating', 'Running', 'Scaling', 'Upgrading', 'Degraded', 'UpgradeBlocked', 'Paused'] as const;

/** `RestoreBlocked` is written only for clusters with spec.restoreFrom or status.restore. */
export const CONDITION_TYPES = ['Available', 'Progressing', 'Degraded', 'Upgrading', 'UpgradeBlocked', 'RestoreBlocked'] as const;

export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;

export const UPGRADE_STATES = ['Snapshotting', 'Rehearsing', 'UpgradingMembers', 'WaitingV2', 'Finalizing', 'RollingBack', 'Completed', 'RolledBack', 'Blocked'] as const;
