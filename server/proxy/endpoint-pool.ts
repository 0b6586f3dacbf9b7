/**
 * The endpoints a proxy forwards to, and which of them it currently uses (pure: the caller
 * passes the time).
 *
 * `pick` hands out the active endpoints in turn (round robin). An endpoint that cannot be
 * reached is deactivated (`failed`); once its retry delay has passed it is `due` for a probe,
 * and a probe that connects makes it active again (`recovered`). With no active endpoint
 * `pick` answers undefined and the proxy closes the client's connection, as etcd's gateway does.
 */

export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

export const endpointAddress = (e: Endpoint): string => (e.host.includes(':') ? `[${e.host}]:${e.port}` : `${e.host}:${e.port}`);

export class EndpointPool {
  readonly #endpoints: readonly Endpoint[];
  /** Per endpoint: undefined when active, else the time it went inactive. */
  readonly #inactiveSince: Array<number | undefined>;
  readonly #retryDelayMs: number;
  #turn = 0;

  constructor(endpoints: readonly Endpoint[], retryDelayMs: number) {
    if (endpoints.length === 0) throw new Error('an endpoint pool needs at least one endpoint');
    this.#endpoints = endpoints;
    this.#inactiveSince = endpoints.map(() => undefined);
    this.#retryDelayMs = retryDelayMs;
  }

  get endpoints(): readonly Endpoint[] {
    return this.#endpoints;
  }

  /** The next active endpoint in turn, or undefined when every one is inactive. */
  pick(): Endpoint | undefined {
    const n = this.#endpoints.length;
    for (let i = 0; i < n; i++) {
      const at = (this.#turn + i) % n;
      if (this.#inactiveSince[at] === undefined) {
        this.#turn = (at + 1) % n;
        return this.#endpoints[at];
      }
    }
    return undefined;
  }

  /** `e` could not be reached: it is skipped until a probe after the retry delay reaches it. */
  failed(e: Endpoint, nowMs: number): void {
    const at = this.#endpoints.indexOf(e);
    if (at >= 0 && this.#inactiveSince[at] === undefined) this.#inactiveSince[at] = nowMs;
  }

  /** A probe reached `e`: it is handed out again. */
  recovered(e: Endpoint): void {
    const at = this.#endpoints.indexOf(e);
    if (at >= 0) this.#inactiveSince[at] = undefined;
  }

  /** A probe of `e` failed: it stays inactive for another retry delay. */
  stillDown(e: Endpoint, nowMs: number): void {
    const at = this.#endpoints.indexOf(e);
    if (at >= 0) this.#inactiveSince[at] = nowMs;
  }

  isActive(e: Endpoint): boolean {
    const at = this.#endpoints.indexOf(e);
    return at >= 0 && this.#inactiveSince[at] === undefined;
  }

  /** The inactive endpoints whose retry delay has passed at `nowMs`. */
  due(nowMs: number): Endpoint[] {
    return this.#endpoints.filter((_, i) => {
      const since = this.#inactiveSince[i];
      return since !== undefined && nowMs - since >= this.#retryDelayMs;
    });
  }
}

/**
 * An endpoint as the flags give it: `host:port`, or a URL whose host and port are taken
 * (`http://10.0.0.1:2379` → 10.0.0.1:2379; the scheme is dropped, as a TCP proxy forwards bytes).
 */
export function parseEndpoint(text: string): Endpoint | undefined {
  let hostPort = text.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(hostPort)) {
    try {
      const u = new URL(hostPort);
      if (u.host === '') return undefined;
      hostPort = u.host;
    } catch {
      return undefined;
    }
  }
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(hostPort);
  if (m === null) return undefined;
  const port = Number(m[3]);
  if (port > 65535) return undefined;
  return { host: m[1] ?? m[2] ?? '', port };
}
