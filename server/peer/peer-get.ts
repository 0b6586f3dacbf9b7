/**
 * A GET of a JSON document from a member's peer listener (`/version`, `/members`), for the
 * callers outside the transport. Never throws: an unreachable peer, a non-200 answer or a
 * body that is not JSON is `undefined`. 64-bit `id` numbers are kept exact (as strings).
 * An `https:` peer URL is asked over TLS with `tls`'s options (the member's peer certificate).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { peerRequest, type PeerDialTls } from './peer-request.js';

export interface PeerDocument {
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
}

export function getPeerJson(baseUrl: string, path: string, timeoutMs: number, tls?: PeerDialTls): Promise<PeerDocument | undefined> {
  return new Promise((resolve) => {
    const target = new URL(path, baseUrl);
    const req = peerRequest(baseUrl, { path: target.pathname + target.search, timeout: timeoutMs }, tls);
    if (typeof req === 'string') return resolve(undefined);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(undefined);
        try {
          const text = Buffer.concat(chunks).toString('utf8').replace(/"id":(\d+)/g, '"id":"$1"');
          resolve({ body: JSON.parse(text) as unknown, headers: res.headers });
        } catch {
          resolve(undefined);
        }
      });
      res.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/** The string field `name` of a JSON object, if it is one. */
export function stringField(body: unknown, name: string): string | undefined {
  const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : undefined;
}
