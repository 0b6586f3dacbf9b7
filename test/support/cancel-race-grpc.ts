/**
 * grpc-js calls cancelled right after they start, for the "call cancelled right after it starts"
 * race: unary Range and Put, a Watch opened (create request written) and cancelled, a
 * LeaseKeepAlive stream, and a Snapshot stream — each cancelled in the same tick, after
 * `setImmediate`, or ended by a 1 ms deadline. A deadline on a bidi call sends `grpc-timeout`,
 * and a channel with gzip as its default compression sends `grpc-encoding: gzip`: both are
 * streams our own framing relays to grpc-js.
 *
 * Every call settles (its status, whatever the code); the tally counts the codes. A call never
 * throws: the test judges the member afterwards.
 */
import { credentials, Metadata, type ChannelCredentials, type ClientOptions, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { KVClient, LeaseClient, MaintenanceClient, WatchClient } from '../../proto/gen/etcd/rpc.js';

export type CallKind = 'Range' | 'Put' | 'Watch' | 'LeaseKeepAlive' | 'Snapshot';

/**
 * The kinds in the order calls cycle through them: one Snapshot in ten (the member still sends a
 * whole snapshot for a stream cancelled at once, so more would only queue work behind the test).
 */
export const CALL_MIX: readonly CallKind[] = ['Range', 'Put', 'Watch', 'LeaseKeepAlive', 'Snapshot', 'Range', 'Put', 'Watch', 'LeaseKeepAlive', 'Watch'];

/**
 * When the call ends: `same-tick` (`cancel()` right after starting it), `immediate` (cancel in a
 * `setImmediate`), `deadline-1ms`; the `+deadline` forms also carry a 30 s deadline (so a bidi
 * call sends `grpc-timeout`).
 */
export const TIMINGS = ['same-tick', 'immediate', 'deadline-1ms', 'same-tick+deadline', 'immediate+deadline'] as const;
export type Timing = (typeof TIMINGS)[number];

/** The four clients, on one channel's options. */
export interface EtcdClients {
  readonly kv: KVClient;
  readonly watch: WatchClient;
  readonly lease: LeaseClient;
  readonly maintenance: MaintenanceClient;
  close(): void;
}

/** Clients of `endpoint`; `ca` makes them TLS clients; `gzip` compresses every request message. */
export function openClients(endpoint: string, opts: { readonly ca?: Buffer; readonly gzip?: boolean } = {}): EtcdClients {
  const creds: ChannelCredentials = opts.ca === undefined ? credentials.createInsecure() : credentials.createSsl(opts.ca);
  const options: Partial<ClientOptions> = { 'grpc.use_local_subchannel_pool': 1 };
  if (opts.gzip === true) options['grpc.default_compression_algorithm'] = 2; // gzip
  const kv = new KVClient(endpoint, creds, options);
  const watch = new WatchClient(endpoint, creds, options);
  const lease = new LeaseClient(endpoint, creds, options);
  const maintenance = new MaintenanceClient(endpoint, creds, options);
  return {
    kv, watch, lease, maintenance,
    close: () => [kv, watch, lease, maintenance].forEach((c) => c.close()),
  };
}

interface Cancellable {
  cancel(): void;
}

function deadlineOf(timing: Timing): Date | undefined {
  if (timing === 'deadline-1ms') return new Date(Date.now() + 1);
  return timing.endsWith('+deadline') ? new Date(Date.now() + 30_000) : undefined;
}

function cancelPer(timing: Timing, call: Cancellable): void {
  if (timing.startsWith('same-tick')) call.cancel();
  else if (timing.startsWith('immediate')) setImmediate(() => call.cancel());
}

/** Starts one call of `kind`, ends it per `timing`; resolves with its status code. */
export function cancelledCall(clients: EtcdClients, kind: CallKind, timing: Timing, i: number): Promise<number> {
  return new Promise((resolve) => {
    const deadline = deadlineOf(timing);
    const options = deadline === undefined ? {} : { deadline };
    const key = Buffer.from(`cancel-race/js/${i % 64}`);
    const unary = (err: ServiceError | null): void => resolve(err === null ? 0 : err.code);
    const onStatus = (s: StatusObject): void => resolve(s.code);
    const ignore = (): void => {};
    switch (kind) {
      case 'Range': {
        const req = {
          key, rangeEnd: Buffer.alloc(0), limit: 0n, revision: 0n, sortOrder: 0, sortTarget: 0, serializable: false, keysOnly: false,
          countOnly: false, minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
        };
        cancelPer(timing, clients.kv.range(req, new Metadata(), options, unary));
        return;
      }
      case 'Put': {
        const req = { key, value: Buffer.from('v'), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false };
        cancelPer(timing, clients.kv.put(req, new Metadata(), options, unary));
        return;
      }
      case 'Watch': {
        const call = clients.watch.watch(new Metadata(), options);
        call.on('error', ignore).on('data', ignore).on('status', onStatus);
        const create = { key, rangeEnd: Buffer.alloc(0), startRevision: 0n, progressNotify: false, filters: [], prevKv: false, watchId: 0n, fragment: false };
        call.write({ requestUnion: { $case: 'createRequest', value: create } });
        cancelPer(timing, call);
        return;
      }
      case 'LeaseKeepAlive': {
        const call = clients.lease.leaseKeepAlive(new Metadata(), options);
        call.on('error', ignore).on('data', ignore).on('status', onStatus);
        call.write({ ID: BigInt(i + 1) });
        cancelPer(timing, call);
        return;
      }
      case 'Snapshot': {
        const call = clients.maintenance.snapshot({}, new Metadata(), options);
        call.on('error', ignore).on('data', ignore).on('status', onStatus);
        cancelPer(timing, call);
        return;
      }
    }
  });
}

/** Status codes seen, by code, over a run. */
export type CodeTally = Record<number, number>;

/**
 * `calls` calls, `parallel` in flight, cycling through CALL_MIX under every timing (the kind
 * varies fastest).
 */
export async function grpcCancelRace(clients: EtcdClients, calls: number, parallel: number): Promise<CodeTally> {
  const codes: CodeTally = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < calls; i = next++) {
      const kind = CALL_MIX[i % CALL_MIX.length]!;
      const timing = TIMINGS[Math.floor(i / CALL_MIX.length) % TIMINGS.length]!;
      const code = await cancelledCall(clients, kind, timing, i);
      codes[code] = (codes[code] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return codes;
}
