/**
 * How many frames of each costly-but-free kind an HTTP/2 client may send: the bounds against
 * the HTTP/2 flood attacks (CVE-2019-9512 ping flood, -9515 settings flood, -9518 empty frames,
 * -9514 reset flood, -9516 0-length headers, CVE-2023-44487 rapid reset). Passing a bound is a
 * connection error ENHANCE_YOUR_CALM (the connection's to send).
 *
 * Each kind is a token bucket: `burst` frames at once, refilled at `perSecond`; one frame takes
 * one token and the bound is passed when none is left. That is a sliding-window count without
 * keeping the window: a client may send `burst` such frames at any moment and `perSecond` for
 * ever. The defaults (`DEFAULT_FLOOD_BOUNDS`) and why they are what they are:
 * - ping 10 000 / 10 000 per s: grpc-go's BDP estimator pings once per round trip while data
 *   arrives (thousands per second on a loopback under load); an ACK costs 17 bytes;
 * - settings 1 000 / 100 per s: clients send one, and another on a rare change;
 * - emptyFrames 1 000 / 100 per s: DATA with no payload and no END_STREAM, HEADERS or
 *   CONTINUATION with an empty fragment that does not end the block, frames of unknown types,
 *   PING ACKs we never asked for, RST_STREAM on streams already closed — none carries anything;
 * - priority 1 000 / 1 000 per s: gRPC clients send none; browsers used a few per page;
 * - streamErrors 1 000 / 100 per s: RST_STREAM we send for the client's faults (malformed
 *   requests, STREAM_CLOSED, flow control, refused streams, 431 / 501 answers);
 * - rapidReset 20 000 / 20 000 per s: the client's RST_STREAM on a stream we had not answered
 *   yet. A Go client with 100 µs deadlines cancels every call it makes, and one connection
 *   carries at most what a member answers (15–35 k calls/s measured, server/README.md), so a
 *   real client stays under it; a client opening and resetting at wire speed is cut within a
 *   fraction of a second, having started at most `burst` + elapsed × `perSecond` calls.
 *
 * Contract: pure; the time is given in milliseconds by the caller with every `spend`
 * (monotonic); nothing is allocated per frame.
 */

export interface RateBound {
  /** Frames allowed at once. */
  readonly burst: number;
  /** Frames allowed per second, sustained. */
  readonly perSecond: number;
}

export const FloodKind = {
  Ping: 'ping',
  Settings: 'settings',
  EmptyFrames: 'emptyFrames',
  Priority: 'priority',
  StreamErrors: 'streamErrors',
  RapidReset: 'rapidReset',
} as const;
export type FloodKind = (typeof FloodKind)[keyof typeof FloodKind];

export type FloodBounds = { readonly [K in FloodKind]: RateBound };

export const DEFAULT_FLOOD_BOUNDS: FloodBounds = {
  ping: { burst: 10_000, perSecond: 10_000 },
  settings: { burst: 1_000, perSecond: 100 },
  emptyFrames: { burst: 1_000, perSecond: 100 },
  priority: { burst: 1_000, perSecond: 1_000 },
  streamErrors: { burst: 1_000, perSecond: 100 },
  rapidReset: { burst: 20_000, perSecond: 20_000 },
};

class Bucket {
  #tokens: number;
  #at: number;

  constructor(
    private readonly bound: RateBound,
    now: number,
  ) {
    this.#tokens = bound.burst;
    this.#at = now;
  }

  /** Takes one token; false when none is left (the bound is passed). */
  take(now: number): boolean {
    if (now > this.#at) {
      this.#tokens = Math.min(this.bound.burst, this.#tokens + ((now - this.#at) * this.bound.perSecond) / 1000);
      this.#at = now;
    }
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

export class FloodGuard {
  readonly #buckets: { readonly [K in FloodKind]: Bucket };

  /** `bounds`: any kind left out keeps its default. */
  constructor(bounds: Partial<FloodBounds>, now: number) {
    const b = { ...DEFAULT_FLOOD_BOUNDS, ...bounds };
    this.#buckets = {
      ping: new Bucket(b.ping, now),
      settings: new Bucket(b.settings, now),
      emptyFrames: new Bucket(b.emptyFrames, now),
      priority: new Bucket(b.priority, now),
      streamErrors: new Bucket(b.streamErrors, now),
      rapidReset: new Bucket(b.rapidReset, now),
    };
  }

  /** Counts one frame of `kind` at `now`; false once the client has passed its bound. */
  spend(kind: FloodKind, now: number): boolean {
    return this.#buckets[kind].take(now);
  }
}
