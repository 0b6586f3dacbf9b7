/**
 * Schema building blocks that keep the KvstoreCluster schema a Kubernetes *structural* schema:
 * every node has a `type`; enums are `enum` lists (Kubernetes knows no `const`); maps use
 * `additionalProperties` (never `patternProperties`); objects passed through to core/v1 types
 * carry `x-kubernetes-preserve-unknown-fields`. Each helper types its value for `Static`.
 */
import { Type, type TSchema, type TUnsafe } from 'typebox';

type Options = Readonly<Record<string, unknown>>;

/** A string restricted to `values` (`{ type: string, enum }`), typed as their union. */
export function stringEnum<const T extends readonly string[]>(values: T, options: Options = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** An integer restricted to `values` (`{ type: integer, enum }`), typed as their union. */
export function integerEnum<const T extends readonly number[]>(values: T, options: Options = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'integer', enum: [...values] });
}

/** `map[string]string` (labels, node selectors). */
export function stringMap(options: Options = {}): TUnsafe<Record<string, string>> {
  return Type.Unsafe<Record<string, string>>({ ...options, type: 'object', additionalProperties: { type: 'string' } });
}

/** An object kept as written (a core/v1 type the API server validates where it is used). */
export function passThroughObject(options: Options = {}): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({ ...options, type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
}

/**
 * A value a user may write as a YAML integer or a string (`x-kubernetes-int-or-string`), e.g.
 * `size: 1Gi` or `autoCompactionRetention: 1`. Typed `string`: withDefaults() turns integers into
 * their decimal text, so code past defaulting only ever sees strings. `pattern` (beside the `anyOf`, as
 * Kubernetes' own int-or-string fields) constrains strings only.
 */
export function intOrString(pattern: string, options: Options = {}): TUnsafe<string> {
  return Type.Unsafe<string>({
    ...options,
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern,
  });
}

/** 64-bit integers (revisions, byte counts, generations) as JSON numbers. */
export function int64(options: Options = {}): TSchema & TUnsafe<number> {
  return Type.Unsafe<number>({ ...options, type: 'integer', format: 'int64' });
}
