/**
 * What every gRPC adapter shares: the leader probe, the logger and the metrics.
 *
 * Require-leader (ETCD-FACTS §0): a call carrying metadata `hasleader: true` fails with
 * NoLeader when this member currently knows no leader — unary calls immediately, streams
 * at their start; an open stream that asked for a leader is cancelled with NoLeader by the
 * member's `noLeader` monitor after 3 election timeouts without one (leader-monitor.ts).
 */
import type { MetadataValue } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { AuthGate } from '../../auth/gate.js';
import type { NoLeaderMonitor } from './leader-monitor.js';
import type { GrpcMetrics } from './metrics.js';

export interface EdgeContext {
  readonly hasLeader: () => boolean;
  /** Whether this member is a learner (serves only Status, serializable Range and Snapshot). */
  readonly isLearner: () => boolean;
  /** Whether the cluster version enables method `path` (capabilities). */
  readonly capable: (path: string) => boolean;
  readonly logger: Logger;
  readonly metrics: GrpcMetrics;
  /** Cancels require-leader streams after 3 election timeouts without a leader (one per member). */
  readonly noLeader: NoLeaderMonitor;
  /** Auth checks (auth-gate.ts); absent: none. Consulted only while auth is enabled. */
  readonly auth?: AuthGate;
}

/** The part of a call's metadata the adapters read (grpc-js's Metadata has it). */
export interface MetadataReader {
  get(key: string): MetadataValue[];
}

export const REQUIRE_LEADER_KEY = 'hasleader';

/** True when the call carries `hasleader: true`. */
export function requiresLeader(metadata: MetadataReader): boolean {
  return metadata.get(REQUIRE_LEADER_KEY).some((v) => v === 'true');
}

/** True when the call asks for a leader and there is none. */
export function lacksRequiredLeader(ctx: EdgeContext, metadata: MetadataReader): boolean {
  return requiresLeader(metadata) && !ctx.hasLeader();
}

const LEARNER_ALLOWED = new Set(['/etcdserverpb.Maintenance/Status', '/etcdserverpb.Maintenance/Snapshot']);

/** True when this member is a learner and the call is one a learner does not serve. */
export function refusedOnLearner(ctx: EdgeContext, path: string, request: unknown): boolean {
  if (!ctx.isLearner() || LEARNER_ALLOWED.has(path)) return false;
  if (path === '/etcdserverpb.KV/Range') return !(request as { serializable?: boolean }).serializable;
  return true;
}

/** A thrown value's message, for logs and Unknown statuses. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
