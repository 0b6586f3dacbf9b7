/**
 * A watch over HTTP: a 200 response streaming one JSON event per line
 * (`{"type":"ADDED","object":{...}}`), from the requested resourceVersion (or the current
 * objects as ADDED when none or "0"), until the client goes away, `timeoutSeconds` passes or
 * the server closes. A resourceVersion older than the history answers one ERROR event with a
 * 410 Expired Status and ends the stream, as the API server does. With allowWatchBookmarks a
 * BOOKMARK carrying the current resourceVersion is sent every `bookmarkMs`.
 */
import type { ServerResponse } from 'node:http';
import type { ObjectStore, Selection, StoreEvent } from './object-store.js';
import { apiVersionOf } from './resources.js';
import type { KubeObject } from './types.js';

/** Parameters of one watch. */
export interface WatchRequest {
  readonly selection: Selection;
  readonly version: string;
  readonly resourceVersion: string | null;
  readonly timeoutSeconds: number | undefined;
  readonly bookmarks: boolean;
  readonly bookmarkMs: number;
}

/** Serves a watch on `res`; answers a function that ends it (used when the server closes). */
export function serveWatch(store: ObjectStore, req: WatchRequest, res: ServerResponse): () => void {
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const apiVersion = apiVersionOf(req.selection.type.group, req.version);
  const write = (type: string, object: unknown): void => {
    if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
  };
  const send = (e: StoreEvent): void => write(e.type, { ...e.object, apiVersion } satisfies KubeObject);
  const rvText = req.resourceVersion;
  let from: bigint | undefined;
  if (rvText !== null && rvText !== '') {
    try {
      from = BigInt(rvText);
    } catch (err) {
      write('ERROR', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `invalid resource version ${rvText}: ${(err as Error).message}`, reason: 'BadRequest', code: 400 });
      res.end();
      return () => undefined;
    }
  }
  const started = store.watch(req.selection, from, send);
  if (!started.ok) {
    write('ERROR', started.error.body);
    res.end();
    return () => undefined;
  }
  const timers: NodeJS.Timeout[] = [];
  const end = (): void => {
    started.cancel();
    for (const t of timers) clearTimeout(t);
    if (!res.writableEnded) res.end();
  };
  if (req.timeoutSeconds !== undefined && req.timeoutSeconds > 0) timers.push(setTimeout(end, req.timeoutSeconds * 1000));
  if (req.bookmarks) {
    const kind = req.selection.type.kind;
    timers.push(setInterval(() => write('BOOKMARK', { kind, apiVersion, metadata: { resourceVersion: String(store.revision()) } }), req.bookmarkMs));
  }
  res.on('close', end);
  return end;
}
