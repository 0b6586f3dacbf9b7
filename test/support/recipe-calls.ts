/**
 * gRPC calls of the Lock and Election services (and the few KV, Lease and Auth calls their
 * stories need) as printable outcomes, for differential transcripts: `ok <message>` or
 * `error <code> <details>`. Messages are rendered with their bytes as text and their header as
 * its revision alone; `Recorder` masks the lease ids it was told about (decimal and hex, as in
 * recipe keys), since the two servers choose different ids.
 */
import { credentials, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import { ElectionClient } from '../../proto/gen/etcd/election.js';
import { LockClient } from '../../proto/gen/etcd/lock.js';
import { AuthClient, KVClient, LeaseClient } from '../../proto/gen/etcd/rpc.js';

const OPTS = { 'grpc.use_local_subchannel_pool': 1 };
const DEADLINE_MS = 20_000;

/** Bytes as text, bigints as decimals, headers as their revision. */
export function render(v: unknown): string {
  return JSON.stringify(v, (k, x: unknown) => {
    if (k === 'header' && x !== null && typeof x === 'object') return `rev ${String((x as { revision?: unknown }).revision)}`;
    if (typeof x === 'bigint') return x.toString();
    if (x !== null && typeof x === 'object' && (x as { type?: unknown }).type === 'Buffer') return Buffer.from((x as { data: number[] }).data).toString();
    return x;
  });
}

export interface Clients {
  readonly lock: LockClient;
  readonly election: ElectionClient;
  readonly kv: KVClient;
  readonly lease: LeaseClient;
  readonly auth: AuthClient;
  close(): void;
}

export function openClients(endpoint: string): Clients {
  const c = credentials.createInsecure();
  const lock = new LockClient(endpoint, c, OPTS);
  const election = new ElectionClient(endpoint, c, OPTS);
  const kv = new KVClient(endpoint, c, OPTS);
  const lease = new LeaseClient(endpoint, c, OPTS);
  const auth = new AuthClient(endpoint, c, OPTS);
  return { lock, election, kv, lease, auth, close: () => [lock, election, kv, lease, auth].forEach((x: Client) => x.close()) };
}

export function metadataOf(token: string | undefined): Metadata {
  const md = new Metadata();
  if (token !== undefined) md.set('token', token);
  return md;
}

/** One unary call under way: its outcome (raw value too) and its cancel. */
export interface Pending<T> {
  readonly outcome: Promise<{ readonly text: string; readonly value?: T }>;
  cancel(): void;
  /** The outcome, or `pending after <ms> ms` if none came within `ms` (a bound, not a timing). */
  within(ms: number): Promise<string>;
}

type UnaryFn<Req, Res> = (req: Req, md: Metadata, opts: { deadline: number }, cb: (e: ServiceError | null, r?: Res) => void) => { cancel(): void };

export function start<Req, Res>(fn: UnaryFn<Req, Res>, req: Req, token?: string): Pending<Res> {
  let call!: { cancel(): void };
  const outcome = new Promise<{ text: string; value?: Res }>((resolve) => {
    call = fn(req, metadataOf(token), { deadline: Date.now() + DEADLINE_MS }, (e, r) =>
      resolve(e ? { text: `error ${e.code} ${e.details}` } : { text: `ok ${render(r)}`, value: r }),
    );
  });
  return {
    outcome,
    cancel: () => call.cancel(),
    async within(ms) {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`pending after ${ms} ms`), ms)));
      try {
        return await Promise.race([outcome.then((o) => o.text), bound]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Calls and waits: the outcome and the value. */
export async function run<Req, Res>(fn: UnaryFn<Req, Res>, req: Req, token?: string): Promise<{ readonly text: string; readonly value?: Res }> {
  return start(fn, req, token).outcome;
}

/** A transcript whose lease ids are masked as `<lease i>` (decimal, and hex in keys). */
export class Recorder {
  readonly lines: string[] = [];
  readonly #leases: bigint[] = [];

  lease(id: bigint): void {
    if (!this.#leases.includes(id)) this.#leases.push(id);
  }

  add(label: string, text: string): void {
    let out = text.replace(/"rev (\d+)"/g, 'rev $1');
    for (const [i, id] of this.#leases.entries()) {
      out = out.split(`"${id}"`).join(`"<lease ${i}>"`).split(`/${id.toString(16)}`).join(`/<lease ${i}>`);
    }
    this.lines.push(`${label}: ${out}`);
  }
}
