/**
 * What every gateway handler needs, passed in once (no module state).
 */
import type { Logger } from 'pino';
import type { Services } from '../services.js';
import type { ToStatus } from './gateway-status.js';
import type { StreamSlots } from './stream-slots.js';

export interface GatewayDeps {
  readonly services: Services;
  /** DomainError → gRPC code + etcd's exact message (the gRPC edge's table). */
  readonly toStatus: ToStatus;
  readonly logger: Logger;
  /** Largest accepted request body (unary) or request message (stream), in bytes. */
  readonly maxBodyBytes: number;
  /**
   * The gRPC receive limit (max-request-bytes + 512 KiB): a request whose protobuf encoding is
   * larger is refused as the reference's gRPC server refuses the frame its gateway forwards.
   */
  readonly maxMessageBytes: number;
  /** `--max-concurrent-streams` over every gateway call (gateway-stream-limit.ts); absent: no limit. */
  readonly streams?: StreamSlots;
}

/** etcd's default gRPC receive limit: 1.5 MiB max-request-bytes + 512 KiB (ETCD-FACTS §0). */
export const DEFAULT_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/**
 * Default body limit, kvstore's own guard (the reference has none): large enough that a request
 * above the message limit is refused with the reference's message-size error instead (base64
 * grows bytes by 4/3, JSON escapes by up to 6×).
 */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
