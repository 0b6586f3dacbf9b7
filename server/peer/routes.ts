/**
 * Route table of the peer HTTP listener: exact paths first, then the longest matching prefix.
 * A path served for other methods only answers 405 with `Allow`; an unknown path answers 404
 * (`404 page not found`, as Go's mux). Upgrade requests (`Connection: Upgrade`) are routed by
 * path prefix to upgrade handlers, which own the raw socket.
 *
 * Contract: a handler that throws or rejects is logged and answered 500 (or its socket is
 * destroyed when the answer already started). Routes may be added and removed at any time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { answerPlain, answerRaw } from './plain-answer.js';
import type { PeerRoute } from './types.js';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export class PeerRouter {
  readonly #routes = new Set<PeerRoute>();
  readonly #upgrades = new Map<string, UpgradeHandler>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  add(route: PeerRoute): () => void {
    this.#routes.add(route);
    return () => {
      this.#routes.delete(route);
    };
  }

  addUpgrade(prefix: string, handler: UpgradeHandler): void {
    this.#upgrades.set(prefix, handler);
  }

  /** @param continuePending the client sent `Expect: 100-continue` and waits for it. */
  dispatch(req: IncomingMessage, res: ServerResponse, continuePending: boolean): void {
    const path = pathOf(req);
    const candidates = this.#match(path);
    if (candidates.length === 0) {
      answerPlain(res, 404, '404 page not found', continuePending);
      return;
    }
    const route = candidates.find((r) => r.method === req.method);
    if (route === undefined) {
      res.setHeader('allow', [...new Set(candidates.map((r) => r.method))].join(', '));
      answerPlain(res, 405, 'Method Not Allowed', continuePending);
      return;
    }
    if (continuePending && route.manualContinue !== true) res.writeContinue();
    const failed = (e: unknown): void => {
      this.#log.error({ path, error: e instanceof Error ? e.message : String(e) }, 'peer HTTP handler failed');
      if (res.headersSent) res.destroy();
      else answerPlain(res, 500, 'internal server error', true);
    };
    try {
      const pending = route.handle(req, res);
      if (pending !== undefined) pending.then(undefined, failed);
    } catch (e) {
      failed(e);
    }
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = pathOf(req);
    for (const [prefix, handler] of this.#upgrades) {
      if (path.startsWith(prefix)) {
        handler(req, socket, head);
        return;
      }
    }
    answerRaw(socket, 404, '404 page not found');
  }

  #match(path: string): PeerRoute[] {
    const exact = [...this.#routes].filter((r) => r.prefix !== true && r.path === path);
    if (exact.length > 0) return exact;
    const prefixed = [...this.#routes].filter((r) => r.prefix === true && path.startsWith(r.path));
    const longest = Math.max(-1, ...prefixed.map((r) => r.path.length));
    return prefixed.filter((r) => r.path.length === longest);
  }
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
