/**
 * How many front-end threads serve the client port (frontend/README.md): `0` serves every client
 * connection on the core thread; `1` moves the client URLs' listeners, TLS, the protocol sniff
 * and the HTTP/2 framing to one front-end thread. Not an etcd flag, so it is read from the
 * environment: `KVSTORE_CLIENT_THREADS`. Unset or empty: the default below. An unknown value is
 * a configuration error naming the accepted ones.
 *
 * One thread at most: on Node.js 20 threads cannot share a listening socket, so a second front
 * end would need client URLs of its own.
 */
export const CLIENT_THREADS_ENV = 'KVSTORE_CLIENT_THREADS';

export const DEFAULT_CLIENT_THREADS = 0;

export type ClientThreadsRead = { readonly ok: true; readonly value: 0 | 1 } | { readonly ok: false; readonly message: string };

export function clientThreads(env: Readonly<Record<string, string | undefined>>): ClientThreadsRead {
  const text = env[CLIENT_THREADS_ENV];
  if (text === undefined || text === '') return { ok: true, value: DEFAULT_CLIENT_THREADS };
  if (text === '0' || text === '1') return { ok: true, value: Number(text) as 0 | 1 };
  return { ok: false, message: `invalid value ${JSON.stringify(text)} for environment variable ${CLIENT_THREADS_ENV}: want "0" or "1"` };
}
