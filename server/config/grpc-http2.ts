/**
 * Which HTTP/2 serves gRPC on the client port: `own` (our framing, transport/h2/, the default)
 * or `node` (connections handed to grpc-js on Node's HTTP/2, kept while the own framing is
 * new). Not an etcd flag, so it is read from the environment: `KVSTORE_GRPC_HTTP2`. An unknown
 * value is a configuration error naming the accepted ones.
 */
export const GRPC_HTTP2_ENV = 'KVSTORE_GRPC_HTTP2';

export type GrpcHttp2 = 'own' | 'node';

export type GrpcHttp2Read = { readonly ok: true; readonly value: GrpcHttp2 } | { readonly ok: false; readonly message: string };

export function grpcHttp2(env: Readonly<Record<string, string | undefined>>): GrpcHttp2Read {
  const text = env[GRPC_HTTP2_ENV];
  if (text === undefined || text === '' || text === 'own') return { ok: true, value: 'own' };
  if (text === 'node') return { ok: true, value: 'node' };
  return { ok: false, message: `invalid value ${JSON.stringify(text)} for environment variable ${GRPC_HTTP2_ENV}: want "own" or "node"` };
}
