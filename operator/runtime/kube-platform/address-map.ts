/**
 * A `UrlResolver` from a file, for an operator running outside the cluster network (a laptop
 * with port-forwards, a test whose pods are local processes): the file is a JSON object from
 * the `host:port` a member advertises to the `host:port` to dial instead, e.g.
 * `{ "demo-0.demo-peer.ns.svc:2379": "127.0.0.1:32379" }`. It is read again whenever it
 * changed (modification time), so entries may be added while the operator runs; URLs without
 * an entry, and every URL while the file is missing or unreadable, are dialled as advertised.
 */
import { readFile, stat } from 'node:fs/promises';
import type { UrlResolver } from './member-url.js';

export function addressMapResolver(file: string): UrlResolver {
  let loadedAt = -1;
  let map: Readonly<Record<string, string>> = {};
  const load = async (): Promise<void> => {
    try {
      const mtime = (await stat(file)).mtimeMs;
      if (mtime === loadedAt) return;
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        map = Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
        loadedAt = mtime;
      }
    } catch {
      // missing or half-written file: keep the last good map (URLs without an entry are dialled as advertised)
    }
  };
  return async (url) => {
    await load();
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return url;
    }
    const to = map[u.host];
    if (to === undefined) return url;
    return `${u.protocol}//${to}${u.pathname === '/' && !url.endsWith('/') ? '' : u.pathname}`;
  };
}
