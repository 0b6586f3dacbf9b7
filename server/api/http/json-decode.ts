/**
 * Gateway request JSON → protobuf message, read exactly as the reference gateway reads it
 * (Go's json.Decoder + jsonpb; ETCD-FACTS §4.2, FORMAT.md "Request bodies").
 *
 * Contract (pure):
 * - the body is read with go-json-scan.ts in decoder mode: one value, anything after it ignored,
 *   no rounding of numbers; an empty (all-whitespace) body and `null` are the empty message;
 * - the value is converted field by field from the message's table (jsonpb-decode.ts), then
 *   built by the generated `fromJSON` (which only ever sees exact decimal strings for 64-bit
 *   integers, canonical base64 for bytes and numbers for enums; enum numbers it does not know
 *   are put back afterwards, as jsonpb keeps them);
 * - malformed JSON or a value jsonpb refuses → a status with Go's text (`unexpected EOF`,
 *   `invalid character …`, `json: cannot unmarshal …`, `illegal base64 data at input byte N`)
 *   and the code the caller gives (InvalidArgument for unary calls);
 * - a message whose protobuf encoding exceeds `maxMessageBytes` → ResourceExhausted
 *   `grpc: received message larger than max (N vs. M)`, as the reference's gRPC server answers
 *   the frame its gateway forwards.
 */
import type { GatewayStatus } from './gateway-status.js';
import { scanJson } from './go-json-scan.js';
import { GatewayCode } from './http-status.js';
import { convertMessage, restoreEnumNumbers } from './jsonpb-decode.js';
import type { MessageSchema } from './jsonpb-schema.js';

export interface JsonMessageFns<T> {
  fromJSON(object: unknown): T;
  toJSON(message: T): unknown;
}

/** A request codec also encodes (to measure the message against the gRPC receive limit). */
export interface RequestFns<T> extends JsonMessageFns<T> {
  encode(message: T): { finish(): Uint8Array };
}

/** What a route needs to read its request: the field table and the generated codec. */
export interface RequestCodec<T> {
  readonly schema: MessageSchema;
  readonly fns: RequestFns<T>;
}

export interface DecodeOptions {
  /** gRPC code of a refusal of the JSON (default InvalidArgument, unary calls). */
  readonly failureCode?: number;
  /** The gRPC receive limit; a larger encoded message → ResourceExhausted with grpc-go's text. */
  readonly maxMessageBytes?: number;
}

export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly status: GatewayStatus };

/** Decodes one request message from its JSON text. */
export function decodeJsonText<T>(codec: RequestCodec<T>, text: string, options: DecodeOptions = {}): Decoded<T> {
  const fail = (message: string): Decoded<T> => ({ ok: false, status: { code: options.failureCode ?? GatewayCode.InvalidArgument, message } });
  const scanned = scanJson(text, 'decoder');
  if (!scanned.ok) return fail(scanned.message);
  if (scanned.value === undefined) return { ok: true, value: codec.fns.fromJSON({}) };
  const converted = convertMessage(codec.schema, scanned.value);
  if (!converted.ok) return fail(converted.message);
  const message = codec.fns.fromJSON(converted.value);
  restoreEnumNumbers(codec.schema, converted.value, message);
  const limit = options.maxMessageBytes;
  // The encoding is at most 3 bytes per character of the JSON text (UTF-8 of one UTF-16 unit;
  // everything else shrinks), so only texts above a third of the limit need measuring.
  if (limit !== undefined && text.length * 3 > limit) {
    const size = codec.fns.encode(message).finish().length;
    if (size > limit) {
      return {
        ok: false,
        status: { code: GatewayCode.ResourceExhausted, message: `grpc: received message larger than max (${size} vs. ${limit})` },
      };
    }
  }
  return { ok: true, value: message };
}
