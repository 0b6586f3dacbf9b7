/**
 * `GET /v2/keys/<k>?wait=true`: the long-poll (etcd's handleKeyWatch).
 *
 * Contract:
 * - a watch the store refuses (401: index cleared) is a normal v2 error answer;
 * - otherwise 200 with `X-Etcd-Index` = the store index when the watch was made, and the
 *   raft headers, flushed at once (chunked); each event is written as one JSON line;
 * - without `stream` the response ends after the first event; with it, it stays open (an
 *   answer taken from the history is, as in etcd, the only event such a stream gets);
 * - the wait is bounded only by the client: when the connection goes away the watcher is
 *   cancelled; a stream client that falls more than MAX_BACKLOG events behind is cut off
 *   (etcd closes such a watcher too);
 * - resolves when the response is over.
 */
import type { Context } from 'koa';
import { isV2Error, type V2Error } from '../../../v2store/errors.js';
import type { V2Event } from '../../../v2store/types.js';
import type { V2Port } from './port.js';
import { eventBody } from './wire-json.js';

export const MAX_BACKLOG = 100;

export interface WatchParams {
  readonly path: string;
  readonly recursive: boolean;
  readonly stream: boolean;
  readonly sinceIndex: bigint;
}

/** Returns the store's error instead of answering when the watch is refused. */
export async function serveKeyWatch(ctx: Context, port: V2Port, p: WatchParams): Promise<V2Error | undefined> {
  const res = ctx.res;
  let ended = false;
  let backlog = 0;
  let cancel = (): void => undefined;
  const end = (): void => {
    if (ended) return;
    ended = true;
    cancel();
    if (!res.writableEnded) res.end();
  };
  const send = (e: V2Event): void => {
    if (ended || res.destroyed) return;
    if (!res.write(eventBody(e))) backlog++;
    if (!p.stream || backlog > MAX_BACKLOG) end();
  };
  const w = port.watch(p.path, { recursive: p.recursive, stream: p.stream, sinceIndex: p.sinceIndex }, send);
  if (isV2Error(w)) return w;
  cancel = w.cancel;

  ctx.respond = false;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('X-Etcd-Index', w.startIndex.toString());
  res.setHeader('X-Raft-Index', port.raftIndex().toString());
  res.setHeader('X-Raft-Term', port.raftTerm().toString());
  res.flushHeaders();
  res.on('drain', () => {
    backlog = 0;
  });
  const over = new Promise<void>((resolve) => {
    res.once('close', resolve);
    if (res.destroyed || !res.socket || res.socket.destroyed) resolve();
  });
  if (w.event) send(w.event);
  await over;
  ended = true;
  cancel();
  return undefined;
}
