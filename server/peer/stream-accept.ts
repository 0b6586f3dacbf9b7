/**
 * Accepts or refuses an incoming stream upgrade (`GET /raft/stream/frames/<sender hex>` with
 * `Upgrade: kvstore-raft-frames`): admission per handshake.ts, refusals answered on the raw
 * socket with etcd's status and body and logged with etcd's wording; an accepted request is
 * answered `101 Switching Protocols` with the local identity headers and handed over.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { STREAM_PATH_PREFIX, STREAM_UPGRADE } from './dial.js';
import { admit, answerHeaders, type LocalIdentity, type MembershipView } from './handshake.js';
import { answerRaw } from './plain-answer.js';

export interface StreamAcceptContext {
  readonly local: LocalIdentity;
  readonly view: MembershipView;
  /** Bound with `local-member-id`. */
  readonly log: Logger;
  /** Owns the socket from now on; `head` holds frame bytes already read. */
  readonly accepted: (from: bigint, socket: Socket, head: Buffer) => void;
}

export function acceptStream(req: IncomingMessage, socket: Duplex, head: Buffer, ctx: StreamAcceptContext): void {
  if (req.method !== 'GET' || req.headers.upgrade?.toLowerCase() !== STREAM_UPGRADE) {
    answerRaw(socket, 400, `expected GET with Upgrade: ${STREAM_UPGRADE}`);
    return;
  }
  const pathFrom = (req.url ?? '').slice(STREAM_PATH_PREFIX.length).split('?')[0] ?? '';
  const admission = admit(ctx.local, req.headers, pathFrom, ctx.view);
  if (admission.kind === 'Reject') {
    ctx.log.warn(admission.log.fields, admission.log.msg);
    answerRaw(socket, admission.status, admission.body);
    return;
  }
  const lines = [
    'HTTP/1.1 101 Switching Protocols',
    'Connection: Upgrade',
    `Upgrade: ${STREAM_UPGRADE}`,
    ...Object.entries(answerHeaders(ctx.local)).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(lines.join('\r\n') + '\r\n\r\n');
  ctx.accepted(admission.from, socket as Socket, head);
}
