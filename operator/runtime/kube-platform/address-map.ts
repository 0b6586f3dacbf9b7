/**
 * A `UrlResolver` from a file, for an operator running outside the cluster network (a laptop
 * with port-forwards, a test whose pods are local processes): the file is a JSON object from
 * the `host:port` a member advertises to the `host:port` to dial instead, e.g.
 * `{ "demo-0.demo-peer.ns.svc:2379": "127.0.0.1:32379" }`. It is read again whenever it
 * changed (modification time), so entries may be added while the operator runs; URLs without
 * an entry, and every URL while the file is missing or unreadable, are dialled as advertised.
 * With `tlsServerName`, an `https` URL mapped to another host carries the advertised host as its TLS server name
 * (`#tls-server-name=<host>`, controller/admin/dial-target.ts): the member's certificate,
 * which names the advertised DNS name, still verifies.
 */
import { readFile, stat } from 'node:fs/promises';
import { withServerName } from '../../controller/admin/dial-target.js';
import type { UrlResolver } from './member-url.js';

export interface AddressMapOptions {
  /** Record the advertised host as the TLS server name of a mapped `https` URL (for URLs this process dials; not for peer URLs passed on as data). */
  readonly tlsServerName?: boolean;
}

export function addressMapResolver(file: string, options: AddressMapOptions = {}): UrlResolver {
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
    const mapped = `${u.protocol}//${to}${u.pathname === '/' && !url.endsWith('/') ? '' : u.pathname}`;
    // Over TLS the member's certificate names the advertised host, not the mapped address.
    return options.tlsServerName === true && u.protocol === 'https:' && hostOf(to) !== u.hostname ? withServerName(mapped, u.hostname) : mapped;
  };
}

/** The host of a `host:port` (brackets of an IPv6 literal removed). */
function hostOf(hostPort: string): string {
  try {
    return new URL(`http://${hostPort}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return hostPort;
  }
}
