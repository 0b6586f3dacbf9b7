/**
 * One typed etcd client (ctl/client) per member client URL, created on first use and kept
 * until `close()`. Each client talks to that one member only (no balancing, no failover), so
 * an answer always describes the member asked.
 */
import { createClient, type Client } from '../../../ctl/client/index.js';

export class ClientPool {
  private readonly clients = new Map<string, Client>();

  constructor(
    private readonly dialTimeoutMs: number,
    private readonly commandTimeoutMs: number,
  ) {}

  of(clientURL: string): Client {
    let c = this.clients.get(clientURL);
    if (c === undefined) {
      c = createClient({ endpoints: [clientURL], dialTimeoutMs: this.dialTimeoutMs, commandTimeoutMs: this.commandTimeoutMs });
      this.clients.set(clientURL, c);
    }
    return c;
  }

  close(): void {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }
}
