/**
 * When a gateway request's client is gone, as etcd's gateway sees it: the request's context ends
 * when its response closes (answered, or the connection dropped) or, on HTTP/1.x, when the client
 * ends the connection (a FIN: Go's HTTP server cancels the request's context on reading EOF, which
 * ends the gateway's gRPC call). kvstore serves half-closed connections, so the second has to be
 * watched for on its own. An HTTP/2 request (TLS, ALPN h2) shares its connection: its own end is
 * its stream's, which closes the response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ClientGone {
  /** Aborted once the client is gone. */
  readonly signal: AbortSignal;
  /** Runs `f` once the client is gone (at once if it is already). */
  then(f: () => void): void;
}

export function clientGone(req: IncomingMessage, res: ServerResponse): ClientGone {
  const controller = new AbortController();
  const socket = req.httpVersionMajor === 1 ? req.socket : undefined;
  const fire = (): void => {
    res.off('close', fire);
    socket?.off('end', fire);
    controller.abort();
  };
  if (res.closed === true || socket?.readableEnded === true || socket?.destroyed === true) controller.abort();
  else {
    res.once('close', fire);
    socket?.once('end', fire);
  }
  return {
    signal: controller.signal,
    then(f) {
      if (controller.signal.aborted) f();
      else controller.signal.addEventListener('abort', f, { once: true });
    },
  };
}
