/**
 * Typed etcd clients (ctl/client) per member client URL, created on first use and kept until
 * `close()`. Each client talks to that one member only (no balancing, no failover), so an
 * answer always describes the member asked.
 *
 * Two clients per URL when credentials are given: `anonymous(url)` presents the TLS client
 * certificate only (the auth-status probe must not carry a token, or it cannot tell auth is on),
 * `admin(url)` also authenticates as the root user. Without credentials both are the same.
 * A URL carrying a TLS server name (dial-target.ts) is dialled without it and verified
 * against that name.
 */
import { createClient, type Client, type ClientOptions } from '../../../ctl/client/index.js';
import type { MemberAccess } from '../ports.js';
import { dialTarget } from './dial-target.js';

export class ClientPool {
  private readonly anon = new Map<string, Client>();
  private readonly root = new Map<string, Client>();

  constructor(
    private readonly dialTimeoutMs: number,
    private readonly commandTimeoutMs: number,
    private readonly access: MemberAccess = {},
  ) {}

  get hasCredentials(): boolean {
    return this.access.credentials !== undefined;
  }

  private make(clientURL: string, withCredentials: boolean): Client {
    const tls = this.access.tls;
    const creds = withCredentials ? this.access.credentials : undefined;
    const { url, serverName } = dialTarget(clientURL);
    const o: ClientOptions = {
      endpoints: [url],
      dialTimeoutMs: this.dialTimeoutMs,
      commandTimeoutMs: this.commandTimeoutMs,
      ...(tls === undefined && serverName === undefined ? {} : { tls: { ca: tls?.ca, cert: tls?.cert, key: tls?.key, serverName } }),
      ...(creds === undefined ? {} : { username: creds.username, password: creds.password }),
    };
    return createClient(o);
  }

  /** The client without credentials (TLS identity only). */
  anonymous(clientURL: string): Client {
    let c = this.anon.get(clientURL);
    if (c === undefined) {
      c = this.make(clientURL, false);
      this.anon.set(clientURL, c);
    }
    return c;
  }

  /** The client authenticating as the root user (the anonymous one without credentials). */
  admin(clientURL: string): Client {
    if (!this.hasCredentials) return this.anonymous(clientURL);
    let c = this.root.get(clientURL);
    if (c === undefined) {
      c = this.make(clientURL, true);
      this.root.set(clientURL, c);
    }
    return c;
  }

  close(): void {
    for (const c of [...this.anon.values(), ...this.root.values()]) c.close();
    this.anon.clear();
    this.root.clear();
  }
}
