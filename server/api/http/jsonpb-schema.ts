/**
 * Field tables of the request messages the gateway reads, in `.proto` declaration order (the order
 * the reference's jsonpb visits fields, so the first bad field is the one reported).
 *
 * Contract: a field has its original proto name, the lowerCamelCase name protoc derives from it
 * (jsonpb accepts both), a kind and whether it is repeated or a oneof member. Enum kinds carry
 * the Go type name (it appears in Go's error texts) and their name → number table. Message kinds
 * are lazy (`TxnRequest` ↔ `RequestOp` refer to each other).
 */

export type ScalarType = 'int64' | 'uint64' | 'int32' | 'uint32' | 'bool' | 'string' | 'bytes';

export type FieldKind =
  | { readonly type: ScalarType }
  | { readonly type: 'enum'; readonly goType: string; readonly values: Readonly<Record<string, number>> }
  | { readonly type: 'message'; readonly message: () => MessageSchema };

export interface FieldSchema {
  readonly name: string;
  readonly jsonName: string;
  readonly kind: FieldKind;
  readonly repeated: boolean;
  readonly oneof: boolean;
}

export interface MessageSchema {
  readonly fields: readonly FieldSchema[];
}

/** protoc's json_name: underscores dropped, the letter after one upper-cased. */
export function protoJsonName(name: string): string {
  return name.replace(/_([a-z0-9]?)/gi, (_all, c: string) => c.toUpperCase());
}

export interface FieldOptions {
  readonly repeated?: boolean;
  readonly oneof?: boolean;
}

export function field(name: string, kind: FieldKind | ScalarType, opts: FieldOptions = {}): FieldSchema {
  return {
    name,
    jsonName: protoJsonName(name),
    kind: typeof kind === 'string' ? { type: kind } : kind,
    repeated: opts.repeated ?? false,
    oneof: opts.oneof ?? false,
  };
}

export function enumKind(goType: string, names: readonly string[]): FieldKind {
  return { type: 'enum', goType, values: Object.fromEntries(names.map((n, i) => [n, i])) };
}

export function messageKind(message: () => MessageSchema): FieldKind {
  return { type: 'message', message };
}

export function message(...fields: FieldSchema[]): MessageSchema {
  return { fields };
}
