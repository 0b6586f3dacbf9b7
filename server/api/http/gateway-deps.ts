/**
 * What every gateway handler needs, passed in once (no module state).
 */
import type { Logger } from 'pino';
import type { Services } from '../services.js';
import type { ToStatus } from './gateway-status.js';

export interface GatewayDeps {
  readonly services: Services;
  /** DomainError → gRPC code + etcd's exact message (the gRPC edge's table). */
  readonly toStatus: ToStatus;
  readonly logger: Logger;
  /** Largest accepted request body (unary) or request message (stream), in bytes. */
  readonly maxBodyBytes: number;
}

/** Default body limit: 2 MiB gRPC receive limit (ETCD-FACTS §0) × 4/3 base64 growth + slack. */
export const DEFAULT_MAX_BODY_BYTES = 3 * 1024 * 1024;
