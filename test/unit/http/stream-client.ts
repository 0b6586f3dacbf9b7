/**
 * A streaming HTTP/1.1 client for the gateway's chunked responses: write request messages
 * while reading response lines, then end or abort.
 */
import { request, type ClientRequest, type IncomingMessage } from 'node:http';

export interface StreamCall {
  readonly response: Promise<IncomingMessage>;
  /** Resolves with the next `\n`-terminated line of the body (without the newline). */
  nextLine(): Promise<string>;
  /** Resolves with the whole rest of the body once the server ends it. */
  rest(): Promise<string>;
  write(text: string): void;
  endBody(text?: string): void;
  abort(): void;
}

export function openStream(port: number, path: string): StreamCall {
  let buffered = '';
  let ended = false;
  let wake: (() => void) | undefined;
  const req: ClientRequest = request({ host: '127.0.0.1', port, method: 'POST', path, agent: false });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (t: string) => {
        buffered += t;
        wake?.();
      });
      res.on('end', () => {
        ended = true;
        wake?.();
      });
      res.on('error', () => undefined);
      resolve(res);
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  const waitMore = (): Promise<void> => new Promise((resolve) => (wake = resolve));
  return {
    response,
    async nextLine() {
      await response;
      for (;;) {
        const i = buffered.indexOf('\n');
        if (i >= 0) {
          const line = buffered.slice(0, i);
          buffered = buffered.slice(i + 1);
          return line;
        }
        if (ended) throw new Error(`stream ended without a full line; rest: ${JSON.stringify(buffered)}`);
        await waitMore();
      }
    },
    async rest() {
      await response;
      while (!ended) await waitMore();
      const all = buffered;
      buffered = '';
      return all;
    },
    write: (text) => void req.write(text),
    endBody: (text) => void req.end(text),
    abort: () => req.destroy(),
  };
}
