/**
 * Reads a whole HTTP request body as UTF-8 text, bounded.
 *
 * Contract: resolves once, never rejects:
 * - `{ ok: true, text }` at the end of the body;
 * - a ResourceExhausted status when the body exceeds `limitBytes` (the rest of the body is
 *   discarded so the connection can still carry the error response);
 * - `{ ok: false, status: undefined }` when the client went away (nothing can be answered).
 */
import type { IncomingMessage } from 'node:http';
import type { GatewayStatus } from './gateway-status.js';
import { GatewayCode } from './http-status.js';

export type BodyText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly status: GatewayStatus | undefined };

export function readBody(req: IncomingMessage, limitBytes: number): Promise<BodyText> {
  return new Promise<BodyText>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: BodyText): void => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onGone);
      req.removeListener('close', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      settle({
        ok: false,
        status: {
          code: GatewayCode.ResourceExhausted,
          message: `request body larger than max (${size}+ vs. ${limitBytes})`,
        },
      });
      req.resume();
    };
    const onEnd = (): void => settle({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    const onGone = (): void => settle({ ok: false, status: undefined });
    const onClose = (): void => {
      if (!req.complete) onGone();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onClose);
  });
}
