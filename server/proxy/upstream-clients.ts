/**
 * The gRPC proxy's connections to the members: one channel per endpoint, and the choice of
 * the one a new call goes to — a ready channel if there is one, taken in turn, else one not
 * known to be failing, else any (the call then fails with UNAVAILABLE, as it would on the member).
 */
import * as grpc from '@grpc/grpc-js';

export interface UpstreamTls {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly insecureSkipVerify: boolean;
}

export interface UpstreamOptions {
  /** Endpoints as the flags give them: `host:port` or `http(s)://host:port`. */
  readonly endpoints: readonly string[];
  /** Set when any TLS flag was given: every endpoint is then dialled with TLS. */
  readonly tls?: UpstreamTls;
  readonly maxSendBytes: number;
  readonly maxRecvBytes: number;
}

export interface UpstreamClients {
  pick(): grpc.Client;
  close(): void;
}

function credentialsFor(endpoint: string, tls: UpstreamTls | undefined): grpc.ChannelCredentials {
  const secure = tls !== undefined || endpoint.startsWith('https://') || endpoint.startsWith('unixs://');
  if (!secure) return grpc.credentials.createInsecure();
  const verify: grpc.VerifyOptions = tls?.insecureSkipVerify ? { rejectUnauthorized: false, checkServerIdentity: () => undefined } : {};
  return grpc.credentials.createSsl(tls?.ca ?? null, tls?.key ?? null, tls?.cert ?? null, verify);
}

const targetOf = (endpoint: string): string => endpoint.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');

export function upstreamClients(o: UpstreamOptions): UpstreamClients {
  const clients = o.endpoints.map(
    (e) =>
      new grpc.Client(targetOf(e), credentialsFor(e, o.tls), {
        'grpc.max_send_message_length': o.maxSendBytes,
        'grpc.max_receive_message_length': o.maxRecvBytes,
      }),
  );
  let turn = 0;
  const inTurn = (accept: (s: grpc.connectivityState) => boolean): grpc.Client | undefined => {
    for (let i = 0; i < clients.length; i++) {
      const c = clients[(turn + i) % clients.length]!;
      if (accept(c.getChannel().getConnectivityState(true))) {
        turn = (turn + i + 1) % clients.length;
        return c;
      }
    }
    return undefined;
  };
  return {
    pick: () =>
      inTurn((s) => s === grpc.connectivityState.READY) ??
      inTurn((s) => s !== grpc.connectivityState.TRANSIENT_FAILURE) ??
      inTurn(() => true)!,
    close: () => {
      for (const c of clients) c.close();
    },
  };
}
