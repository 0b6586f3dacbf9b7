/**
 * One gRPC channel per endpoint, and the choice of the endpoint for the next attempt.
 *
 * Contract:
 * - channels are created lazily and connect on first use; `close()` closes all of them;
 * - `pick()` returns a READY endpoint, round-robin over the ready ones, starting after the last
 *   one picked; when none is ready it starts connecting all of them and waits until one is, or
 *   until the deadline / abort (an error value then, never a throw);
 * - `avoid` skips endpoints that just failed, unless no other endpoint is ready;
 * - `channel(endpoint)` gives the channel of one endpoint, also one outside the list (calls
 *   bound to a given member, e.g. status of every cluster member).
 */
import { Client, connectivityState as ConnectivityState, credentials, type ChannelCredentials, type ChannelOptions } from '@grpc/grpc-js';
import { canceled, deadlineExceeded, noEndpoint, type ClientError } from './errors.js';
import { parseEndpoint, type Endpoint } from './endpoints.js';
import type { ResolvedOptions } from './options.js';
import type { Result } from './result.js';

const TRANSIENT_FAILURE_DETAILS = 'latest balancer error: all SubConns are in TransientFailure';

export class EndpointPool {
  private readonly clients = new Map<string, Client>();
  private readonly list: readonly Endpoint[];
  private next = 0;
  private closed = false;

  constructor(private readonly opts: ResolvedOptions) {
    this.list = opts.endpoints.map((e) => parseEndpoint(e, opts.tls !== undefined));
  }

  /** The endpoints of the list, as given. */
  get endpoints(): readonly string[] {
    return this.list.map((e) => e.display);
  }

  /** The gRPC client (channel) of `endpoint`, created on first use. */
  channel(endpoint: string): Client {
    let c = this.clients.get(endpoint);
    if (c === undefined) {
      const ep = this.list.find((e) => e.display === endpoint) ?? parseEndpoint(endpoint, this.opts.tls !== undefined);
      c = new Client(ep.target, this.credentialsFor(ep), this.channelOptions());
      this.clients.set(endpoint, c);
    }
    return c;
  }

  /** A ready endpoint of the list (see the file header). */
  async pick(deadline: number, signal: AbortSignal | undefined, avoid: ReadonlySet<string> = new Set()): Promise<Result<string>> {
    if (this.closed) return { ok: false, error: noEndpoint('grpc: the client connection is closing') };
    if (this.list.length === 0) return { ok: false, error: noEndpoint('there is no address available') };
    for (;;) {
      const ready = this.readyEndpoints();
      const preferred = ready.filter((e) => !avoid.has(e));
      const choice = preferred.length > 0 ? preferred : ready;
      if (choice.length > 0) {
        const ep = choice[this.next++ % choice.length];
        return { ok: true, value: ep };
      }
      const waited = await this.waitForChange(deadline, signal);
      if (!waited.ok) return waited;
    }
  }

  /** Waits until `endpoint`'s channel is READY (connecting it if idle), or the deadline / abort. */
  async waitReady(endpoint: string, deadline: number, signal: AbortSignal | undefined): Promise<Result<void>> {
    const ch = this.channel(endpoint).getChannel();
    for (;;) {
      const state = ch.getConnectivityState(true);
      if (state === ConnectivityState.READY) return { ok: true, value: undefined };
      const r = await watchOnce(ch, state, deadline, signal);
      if (!r.ok) return { ok: false, error: r.error.kind === 'DeadlineExceeded' ? deadlineExceeded(this.pinnedFailure(endpoint, state), endpoint) : r.error };
    }
  }

  /**
   * The status text of a deadline reached while one endpoint could not be connected, in gRPC-Go's
   * words for a refused connection (what a member that is down gives).
   */
  private pinnedFailure(endpoint: string, state: State): string {
    if (state !== ConnectivityState.TRANSIENT_FAILURE) return 'context deadline exceeded';
    const target = (this.list.find((e) => e.display === endpoint) ?? parseEndpoint(endpoint, this.opts.tls !== undefined)).target;
    return `latest balancer error: connection error: desc = "transport: Error while dialing dial tcp ${target}: connect: connection refused"`;
  }

  close(): void {
    this.closed = true;
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }

  private readyEndpoints(): string[] {
    const out: string[] = [];
    for (const ep of this.list) {
      const state = this.channel(ep.display).getChannel().getConnectivityState(true);
      if (state === ConnectivityState.READY) out.push(ep.display);
    }
    return out;
  }

  private async waitForChange(deadline: number, signal: AbortSignal | undefined): Promise<Result<void>> {
    const channels = this.list.map((ep) => this.channel(ep.display).getChannel());
    const states = channels.map((ch) => ch.getConnectivityState(true));
    const allFailed = states.every((s) => s === ConnectivityState.TRANSIENT_FAILURE);
    const r = await Promise.race(channels.map((ch, i) => watchOnce(ch, states[i], deadline, signal)));
    if (r.ok) return r;
    if (r.error.kind === 'DeadlineExceeded') return { ok: false, error: deadlineExceeded(allFailed ? TRANSIENT_FAILURE_DETAILS : 'context deadline exceeded') };
    return r;
  }

  private credentialsFor(ep: Endpoint): ChannelCredentials {
    if (!ep.secure) return credentials.createInsecure();
    const tls = this.opts.tls ?? {};
    const skip = tls.insecureSkipVerify === true;
    return credentials.createSsl(tls.ca ?? null, tls.key ?? null, tls.cert ?? null, skip ? { rejectUnauthorized: false, checkServerIdentity: () => undefined } : {});
  }

  private channelOptions(): ChannelOptions {
    const o: ChannelOptions = {
      'grpc.max_receive_message_length': this.opts.maxCallRecvMsgSize,
      'grpc.max_send_message_length': -1,
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 1000,
      'grpc.enable_retries': 0,
    };
    const serverName = this.opts.tls?.serverName;
    if (serverName !== undefined) o['grpc.ssl_target_name_override'] = serverName;
    if (this.opts.keepAliveTimeMs !== undefined) o['grpc.keepalive_time_ms'] = this.opts.keepAliveTimeMs;
    if (this.opts.keepAliveTimeoutMs !== undefined) o['grpc.keepalive_timeout_ms'] = this.opts.keepAliveTimeoutMs;
    return o;
  }
}


type WatchableChannel = ReturnType<Client['getChannel']>;
type State = ReturnType<WatchableChannel['getConnectivityState']>;

/**
 * Resolves when the channel leaves `state`, or with an error at the deadline or on abort.
 * While waiting it holds a timer, so a pending call keeps the process alive (gRPC's own
 * connection handles do not).
 */
function watchOnce(ch: WatchableChannel, state: State, deadline: number, signal: AbortSignal | undefined): Promise<Result<void>> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve({ ok: false, error: canceled() });
    const hold = setInterval(() => undefined, 60_000);
    const done = (r: Result<void>): void => {
      clearInterval(hold);
      signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const onAbort = (): void => done({ ok: false, error: canceled() });
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      ch.watchConnectivityState(state, deadline, (err?: Error) => {
        done(err === undefined ? { ok: true, value: undefined } : { ok: false, error: deadlineExceeded() as ClientError });
      });
    } catch (err) {
      // The channel was shut down (client closed) between the state read and the watch.
      done({ ok: false, error: noEndpoint(`grpc: the client connection is closing (${String(err)})`) });
    }
  });
}
