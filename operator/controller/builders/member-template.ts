/**
 * What the operator decides about the member pods beyond the spec: how many members, which
 * version the pod template runs (not always spec.version: during an upgrade or a rollback the
 * operator moves it member by member), and whether members bootstrap a new cluster or join an
 * existing one (scaling adds a member as a learner with `existing`).
 */
import type { TemplateRestore } from './restore-init-container.js';

export const INITIAL_CLUSTER_STATES = ['new', 'existing'] as const;
export type InitialClusterState = (typeof INITIAL_CLUSTER_STATES)[number];

export interface MemberTemplate {
  /** Members (StatefulSet replicas; --initial-cluster lists ordinals 0 … members-1). */
  readonly members: number;
  /** Server version of the pod template: image tag and KVSTORE_SERVER_VERSION. */
  readonly version: string;
  /** Default `new`. */
  readonly initialClusterState?: InitialClusterState;
  /** Created from a snapshot: the init container restoring founding members (restore-init-container.ts). */
  readonly restore?: TemplateRestore;
}
