/**
 * Serves `POST /raft/snapshot` (see FORMAT.md): admits the sender like a stream, answers
 * `100 Continue`, splits `u32 BE meta length | meta` off the body and hands the rest to the
 * snapshot handler as an async iterable that pulls from the socket (back-pressure).
 *
 * Answers: 204 when the handler returns ok; 400 for a malformed body; 500 with the error
 * kind when the handler fails or throws; admission refusals as in handshake.ts. Counts
 * `snapshot_receive_*` per sender.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { DomainError, Result } from '../errors/domain-error.js';
import { formatId } from '../config/identity.js';
import { admit, header, PeerHeader, type LocalIdentity, type MembershipView } from './handshake.js';
import type { PeerMetrics } from './peer-metrics.js';
import { answerPlain } from './plain-answer.js';

export interface SnapshotReceiveContext {
  readonly local: LocalIdentity;
  readonly view: MembershipView;
  /** Bound with `local-member-id`. */
  readonly log: Logger;
  readonly metrics: PeerMetrics;
  readonly maxMetaBytes: number;
  readonly onSnapshot: (from: bigint, meta: Buffer, body: AsyncIterable<Buffer>) => Promise<Result<void>>;
}

export async function receiveSnapshot(req: IncomingMessage, res: ServerResponse, ctx: SnapshotReceiveContext): Promise<void> {
  const admission = admit(ctx.local, req.headers, header(req.headers, PeerHeader.From) ?? '', ctx.view);
  if (admission.kind === 'Reject') {
    ctx.log.warn(admission.log.fields, admission.log.msg);
    answerPlain(res, admission.status, admission.body, true);
    return;
  }
  const from = admission.from;
  const fromHex = formatId(from);
  if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
  const started = process.hrtime.bigint();
  const m = ctx.metrics;
  m.snapshotReceiveInflights.inc({ From: fromHex });
  const outcome = await receive(req, from, ctx);
  m.snapshotReceiveInflights.dec({ From: fromHex });
  if (outcome.status === 204) {
    m.snapshotReceiveSuccess.inc({ From: fromHex });
    m.snapshotReceiveDuration.observe({ From: fromHex }, Number(process.hrtime.bigint() - started) / 1e9);
    ctx.log.info({ 'remote-peer-id': fromHex }, 'received and saved database snapshot');
  } else {
    m.snapshotReceiveFailures.inc({ From: fromHex });
    ctx.log.warn({ 'remote-peer-id': fromHex, error: outcome.text }, 'failed to receive snapshot');
  }
  answerPlain(res, outcome.status, outcome.status === 204 ? '' : outcome.text, outcome.status !== 204 || !req.complete);
}

async function receive(req: IncomingMessage, from: bigint, ctx: SnapshotReceiveContext): Promise<{ status: number; text: string }> {
  const source = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let held: Buffer = Buffer.alloc(0);
  const fill = async (n: number): Promise<boolean> => {
    while (held.length < n) {
      const r = await source.next();
      if (r.done === true) return false;
      held = held.length === 0 ? r.value : Buffer.concat([held, r.value]);
    }
    return true;
  };
  let meta: Buffer;
  try {
    if (!(await fill(4))) return { status: 400, text: 'truncated snapshot meta' };
    const metaLength = held.readUInt32BE(0);
    if (metaLength > ctx.maxMetaBytes) return { status: 400, text: `snapshot meta of ${metaLength} bytes is too large` };
    if (!(await fill(4 + metaLength))) return { status: 400, text: 'truncated snapshot meta' };
    meta = Buffer.from(held.subarray(4, 4 + metaLength));
    held = held.subarray(4 + metaLength);
  } catch (e) {
    return { status: 400, text: `failed to read snapshot meta: ${messageOf(e)}` };
  }
  const first = held;
  async function* body(): AsyncGenerator<Buffer> {
    if (first.length > 0) yield first;
    for (;;) {
      const r = await source.next();
      if (r.done === true) return;
      yield r.value;
    }
  }
  let result: Result<void>;
  try {
    result = await ctx.onSnapshot(from, meta, body());
  } catch (e) {
    ctx.log.error({ 'remote-peer-id': formatId(from), error: messageOf(e) }, 'snapshot handler threw');
    return { status: 500, text: `snapshot handler failed: ${messageOf(e)}` };
  }
  if (!result.ok) return { status: 500, text: describe(result.error) };
  return { status: 204, text: '' };
}

function describe(e: DomainError): string {
  return e.kind === 'Internal' ? `Internal: ${e.message}` : e.kind;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
