/**
 * Gateway paths of services kvstore does not serve through the gateway yet (3.5 downgrade):
 * each answers the gRPC status Unimplemented for its method (HTTP 501), rendered through the injected error table like every other failure.
 */
export interface UnimplementedRoute {
  readonly path: string;
  readonly grpcMethod: string;
}

const r = (path: string, grpcMethod: string): UnimplementedRoute => ({ path, grpcMethod });

export const UNIMPLEMENTED_ROUTES: readonly UnimplementedRoute[] = [
  r('/maintenance/downgrade', '/etcdserverpb.Maintenance/Downgrade'),
];
