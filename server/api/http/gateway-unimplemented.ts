/**
 * Gateway paths of services kvstore does not serve through the gateway yet (lock, election,
 * 3.5 downgrade): each answers the gRPC status Unimplemented for its method
 * (HTTP 501), rendered through the injected error table like every other failure.
 */
export interface UnimplementedRoute {
  readonly path: string;
  readonly grpcMethod: string;
}

const r = (path: string, grpcMethod: string): UnimplementedRoute => ({ path, grpcMethod });

export const UNIMPLEMENTED_ROUTES: readonly UnimplementedRoute[] = [
  r('/lock/lock', '/v3lockpb.Lock/Lock'),
  r('/lock/unlock', '/v3lockpb.Lock/Unlock'),
  r('/election/campaign', '/v3electionpb.Election/Campaign'),
  r('/election/proclaim', '/v3electionpb.Election/Proclaim'),
  r('/election/leader', '/v3electionpb.Election/Leader'),
  r('/election/observe', '/v3electionpb.Election/Observe'),
  r('/election/resign', '/v3electionpb.Election/Resign'),
  r('/maintenance/downgrade', '/etcdserverpb.Maintenance/Downgrade'),
];
