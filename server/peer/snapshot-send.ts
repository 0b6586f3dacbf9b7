/**
 * Streams one snapshot to a peer over its own HTTP/1.1 connection (see FORMAT.md):
 * `POST /raft/snapshot` with the handshake headers and `Expect: 100-continue`, so a refusal
 * (404/410/412) arrives before any body byte is sent; then a chunked body of
 * `u32 BE meta length | meta | snapshot bytes`; the receiver answers 204 once its handler
 * has taken the whole snapshot.
 *
 * Contract: `body` is pulled only as fast as the connection drains (back-pressure); it is
 * closed (`return()`) when the exchange stops early. Resolves (never rejects) with the number
 * of snapshot body bytes sent, or a PeerError: `Rejected` (any non-2xx answer), `Unreachable`
 * (connect failure, broken or idle connection), `Stopped` (aborted by `signal`),
 * `SourceFailed` (the body iterable threw).
 */
import type { ClientRequest } from 'node:http';
import { drainedOrClosed } from '../transport/drained.js';
import { SNAPSHOT_PATH } from './dial.js';
import { peerFail, peerOk, type PeerResult } from './errors.js';
import { peerRequest, type PeerDialTls } from './peer-request.js';

export interface SnapshotSendArgs {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly meta: Buffer;
  readonly body: AsyncIterable<Buffer>;
  readonly idleTimeoutMs: number;
  readonly signal: AbortSignal;
  /** Options for an `https:` URL. */
  readonly tls: PeerDialTls;
}

type Answer = { readonly status: number; readonly body: string } | { readonly error: Error };

const MAX_ANSWER_BODY = 4096;

export async function streamSnapshot(args: SnapshotSendArgs): Promise<PeerResult<number>> {
  if (args.signal.aborted) return peerFail({ kind: 'Stopped' });
  const req = peerRequest(args.url, {
    method: 'POST',
    path: SNAPSHOT_PATH,
    agent: false,
    signal: args.signal,
    headers: { ...args.headers, 'content-type': 'application/octet-stream', expect: '100-continue' },
  }, args.tls);
  if (typeof req === 'string') return peerFail({ kind: 'Unreachable', message: req });
  req.setTimeout(args.idleTimeoutMs, () => req.destroy(new Error(`snapshot connection idle for ${args.idleTimeoutMs}ms`)));
  const answer = awaitAnswer(req);
  let answered = false;
  void answer.then(() => {
    answered = true;
  });
  req.flushHeaders();

  const proceed = await Promise.race([new Promise<true>((resolve) => req.once('continue', () => resolve(true))), answer]);
  let sent = 0;
  if (proceed === true) {
    const prefix = Buffer.allocUnsafe(4);
    prefix.writeUInt32BE(args.meta.length, 0);
    req.write(prefix);
    req.write(args.meta);
    try {
      for await (const chunk of args.body) {
        if (answered) break;
        sent += chunk.length;
        if (!req.write(chunk)) await Promise.race([drainedOrClosed(req), answer]);
      }
    } catch (e) {
      req.destroy();
      await answer;
      return peerFail({ kind: 'SourceFailed', message: `snapshot source failed: ${e instanceof Error ? e.message : String(e)}`, cause: e });
    }
    if (!answered) req.end();
  }
  const outcome = await answer;
  req.destroy();
  if ('error' in outcome) {
    if (args.signal.aborted) return peerFail({ kind: 'Stopped' });
    return peerFail({ kind: 'Unreachable', message: outcome.error.message, cause: outcome.error });
  }
  if (outcome.status < 200 || outcome.status >= 300) return peerFail({ kind: 'Rejected', status: outcome.status, reason: outcome.body });
  return peerOk(sent);
}

/** The final answer (status and trimmed body) or the error that ended the request. */
function awaitAnswer(req: ClientRequest): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    let responded = false;
    req.on('error', (error) => resolve({ error }));
    req.on('close', () => {
      if (!responded) resolve({ error: new Error('connection closed before an answer') });
    });
    req.on('response', (res) => {
      responded = true;
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < MAX_ANSWER_BODY) parts.push(c);
        size += c.length;
      });
      const done = (): void =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).subarray(0, MAX_ANSWER_BODY).toString('utf8').trim() });
      res.on('end', done);
      res.on('close', done);
    });
  });
}

