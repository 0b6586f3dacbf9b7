/**
 * The methods the client port serves on its own HTTP/2 streams, by path: each one's streaming
 * shape, handler, request deserializer and reply serializer, taken from the same service
 * definitions and implementations that are registered with grpc-js (which serves them only
 * with `KVSTORE_GRPC_HTTP2=node`). Built from public values alone: nothing is read out of a
 * grpc-js server.
 */
import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';

export type MethodKind = 'unary' | 'serverStream' | 'clientStream' | 'bidi';

/** One method as our own calls serve it. */
export interface ServedMethod {
  readonly kind: MethodKind;
  readonly path: string;
  /** The implementation, called with a call object shaped like grpc-js's for `kind`. */
  readonly func: (...args: never[]) => void;
  readonly serialize: (value: unknown) => Buffer;
  readonly deserialize: (bytes: Buffer) => unknown;
}

export type MethodTable = ReadonlyMap<string, ServedMethod>;

/** Adds every method of `def` with its handler in `impl` (a method without one is not added). */
export function addService(table: Map<string, ServedMethod>, def: ServiceDefinition, impl: UntypedServiceImplementation): void {
  for (const [name, method] of Object.entries(def)) {
    const func = impl[name] as ServedMethod['func'] | undefined;
    if (typeof func !== 'function') continue;
    table.set(method.path, {
      kind: kindOf(method.requestStream, method.responseStream),
      path: method.path,
      func,
      serialize: method.responseSerialize as (value: unknown) => Buffer,
      deserialize: method.requestDeserialize as (bytes: Buffer) => unknown,
    });
  }
}

function kindOf(requestStream: boolean, responseStream: boolean): MethodKind {
  if (requestStream) return responseStream ? 'bidi' : 'clientStream';
  return responseStream ? 'serverStream' : 'unary';
}
