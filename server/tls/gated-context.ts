/**
 * The TLS options of a port that refuses client certificates inside the handshake
 * (handshake-gate.ts): the side's material, capped at TLS 1.2, without session tickets (Node's
 * server keeps no session cache of its own, so no handshake is resumed).
 *
 * Contract: undefined when the material cannot speak TLS 1.2 (its minimum is TLS 1.3, from
 * `--tls-min-version` on the 3.5 line); the caller then refuses after the handshake.
 */
import { constants } from 'node:crypto';
import type { SecureContextOptions } from 'node:tls';

export function gatedContextOptions(options: SecureContextOptions): SecureContextOptions | undefined {
  if (options.minVersion === 'TLSv1.3') return undefined;
  return { ...options, maxVersion: 'TLSv1.2', secureOptions: (options.secureOptions ?? 0) | constants.SSL_OP_NO_TICKET };
}
