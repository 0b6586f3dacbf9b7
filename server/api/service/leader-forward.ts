/**
 * Requests only the leader can answer (lease keep-alive and time-to-live: the leader's
 * lessor holds the live deadlines), forwarded from a follower over the peer listener:
 *   POST /leases/keepalive   body LeaseKeepAliveRequest   → 200 LeaseKeepAliveResponse
 *   POST /leases/timetolive  body LeaseTimeToLiveRequest  → 200 LeaseTimeToLiveResponse
 * (protobuf bodies). A member that is not the leader answers 503; the forwarder reports
 * LeaderChanged so the client retries.
 */
import { Agent, request } from 'node:http';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { err, fail, ok, type DomainError, type Result } from '../../errors/domain-error.js';

export const LEASE_KEEPALIVE_PATH = '/leases/keepalive';
export const LEASE_TTL_PATH = '/leases/timetolive';

export const MEMBER_PROMOTE_PATH = '/members/promote/';

export interface LeaderForwarder {
  keepAlive(req: pb.LeaseKeepAliveRequest): Promise<Result<pb.LeaseKeepAliveResponse>>;
  timeToLive(req: pb.LeaseTimeToLiveRequest): Promise<Result<pb.LeaseTimeToLiveResponse>>;
  /** Asks the leader to promote learner `id`; the leader answers 200, or an error kind as JSON. */
  promote(id: bigint): Promise<Result<void>>;
  close(): void;
}

interface Codec<Req, Res> {
  encode(r: Req): { finish(): Uint8Array };
  decode(b: Uint8Array): Res;
}

export function createLeaderForwarder(leaderPeerUrl: () => string | undefined, timeoutMs: number): LeaderForwarder {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const post = <Req, Res>(path: string, body: Req, reqCodec: Codec<Req, unknown>, resCodec: Codec<unknown, Res>): Promise<Result<Res>> => {
    const base = leaderPeerUrl();
    if (base === undefined) return Promise.resolve(err('NoLeader'));
    const payload = Buffer.from(reqCodec.encode(body).finish());
    return new Promise((resolve) => {
      const req = request(new URL(path, base), { method: 'POST', agent, timeout: timeoutMs, headers: { 'content-type': 'application/protobuf', 'content-length': payload.length } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== 200) return resolve(err('LeaderChanged'));
          try {
            resolve(ok(resCodec.decode(Buffer.concat(chunks))));
          } catch {
            resolve(err('LeaderChanged'));
          }
        });
        res.on('error', () => resolve(err('LeaderChanged')));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve(err('LeaderChanged')));
      req.end(payload);
    });
  };
  return {
    keepAlive: (r) => post(LEASE_KEEPALIVE_PATH, r, pb.LeaseKeepAliveRequest, pb.LeaseKeepAliveResponse),
    timeToLive: (r) => post(LEASE_TTL_PATH, r, pb.LeaseTimeToLiveRequest, pb.LeaseTimeToLiveResponse),
    promote: (id) => {
      const base = leaderPeerUrl();
      if (base === undefined) return Promise.resolve(err('NoLeader'));
      return new Promise((resolve) => {
        const req = request(new URL(`${MEMBER_PROMOTE_PATH}${id.toString()}`, base), { method: 'POST', agent, timeout: timeoutMs }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode === 200) return resolve(ok(undefined));
            try {
              const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: DomainError };
              resolve(body.error ? fail(body.error) : err('LeaderChanged'));
            } catch {
              resolve(err('LeaderChanged'));
            }
          });
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', () => resolve(err('LeaderChanged')));
        req.end();
      });
    },
    close: () => agent.destroy(),
  };
}
