/**
 * gRPC server metrics with go-grpc-prometheus names and labels (ETCD-FACTS §8.5, no prefix):
 *   grpc_server_started_total{grpc_type,grpc_service,grpc_method}
 *   grpc_server_handled_total{grpc_type,grpc_service,grpc_method,grpc_code}
 *   grpc_server_msg_received_total / grpc_server_msg_sent_total{grpc_type,grpc_service,grpc_method}
 *
 * Hot path cost is a field increment: each method has a plain-number tally, copied into
 * the prom-client counters when the registry is scraped. Every method that gets a tally
 * (i.e. every registered method) reports zero-valued series from the start, including
 * handled_total for all 17 codes.
 *
 * And one of kvstore's own: `kvstore_client_faults_total{protocol,method}`, the calls and
 * requests on the client port ended by a fault inside the member (a handler that threw, a bug
 * in the framing of a stream): each answered gRPC INTERNAL or HTTP 500 and logged once, the
 * member going on. `method` is the gRPC method path or the HTTP request method (`other` for
 * anything else, so a client cannot grow the label set).
 *
 * One gRPC server per registry: registering the counters twice in one registry throws.
 */
import { Counter, type Registry } from 'prom-client';
import { CODE_NAMES } from './codes.js';

const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);

export type RpcType = 'unary' | 'client_stream' | 'server_stream' | 'bidi_stream';

/** Counts for one method. Each call records start once and handled once. */
export class MethodTally {
  started = 0;
  received = 0;
  sent = 0;
  readonly handled: number[] = CODE_NAMES.map(() => 0);

  constructor(
    readonly type: RpcType,
    readonly service: string,
    readonly method: string,
  ) {}

  handle(code: number): void {
    const i = code >= 0 && code < this.handled.length ? code : 2;
    this.handled[i]! += 1;
  }

  /** Counts of calls served elsewhere (a front-end thread), added as if served here. */
  add(started: number, received: number, sent: number, handled: readonly number[]): void {
    this.started += started;
    this.received += received;
    this.sent += sent;
    handled.forEach((n, code) => (this.handled[code]! += n));
  }

  /** `n` unary calls answered OK elsewhere (a front-end thread), counted as if served here. */
  servedOk(n: number): void {
    this.started += n;
    this.received += n;
    this.sent += n;
    this.handled[0]! += n;
  }
}

export interface GrpcMetrics {
  /** The tally of a method, created (with zero series) on first use. */
  method(def: { readonly path: string; readonly requestStream: boolean; readonly responseStream: boolean }): MethodTally;
  /** A gRPC call (`method`: its path, or `other`) or HTTP request (`method`: GET, POST…) ended by a fault inside the member. */
  clientFault(protocol: 'grpc' | 'http', method: string): void;
}

export function createGrpcMetrics(registry: Registry): GrpcMetrics {
  const tallies = new Map<string, MethodTally>();
  const base = ['grpc_type', 'grpc_service', 'grpc_method'] as const;
  const labelsOf = (t: MethodTally) => ({ grpc_type: t.type, grpc_service: t.service, grpc_method: t.method });

  const simple = (name: string, help: string, pick: (t: MethodTally) => number) =>
    new Counter({
      name,
      help,
      labelNames: base,
      registers: [registry],
      collect() {
        this.reset();
        for (const t of tallies.values()) this.inc(labelsOf(t), pick(t));
      },
    });

  simple('grpc_server_started_total', 'Total number of RPCs started on the server.', (t) => t.started);
  simple('grpc_server_msg_received_total', 'Total number of RPC stream messages received on the server.', (t) => t.received);
  simple('grpc_server_msg_sent_total', 'Total number of gRPC stream messages sent by the server.', (t) => t.sent);
  new Counter({
    name: 'grpc_server_handled_total',
    help: 'Total number of RPCs completed on the server, regardless of success or failure.',
    labelNames: [...base, 'grpc_code'],
    registers: [registry],
    collect() {
      this.reset();
      for (const t of tallies.values()) {
        t.handled.forEach((n, code) => this.inc({ ...labelsOf(t), grpc_code: CODE_NAMES[code]! }, n));
      }
    },
  });

  const faults = new Map<string, { readonly protocol: string; readonly method: string; n: number }>();
  new Counter({
    name: 'kvstore_client_faults_total',
    help: 'Calls and requests on the client port ended by a fault inside the member (answered gRPC INTERNAL or HTTP 500, logged once).',
    labelNames: ['protocol', 'method'],
    registers: [registry],
    collect() {
      this.reset();
      for (const f of faults.values()) this.inc({ protocol: f.protocol, method: f.method }, f.n);
    },
  });

  return {
    clientFault(protocol, method) {
      const m = protocol === 'http' ? (HTTP_METHODS.has(method) ? method : 'other') : method;
      const key = `${protocol} ${m}`;
      const f = faults.get(key);
      if (f === undefined) faults.set(key, { protocol, method: m, n: 1 });
      else f.n += 1;
    },
    method(def) {
      let t = tallies.get(def.path);
      if (t === undefined) {
        const [service = '', method = ''] = def.path.slice(1).split('/');
        t = new MethodTally(rpcType(def.requestStream, def.responseStream), service, method);
        tallies.set(def.path, t);
      }
      return t;
    },
  };
}

function rpcType(requestStream: boolean, responseStream: boolean): RpcType {
  if (requestStream) return responseStream ? 'bidi_stream' : 'client_stream';
  return responseStream ? 'server_stream' : 'unary';
}
