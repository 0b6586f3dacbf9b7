/**
 * parseCluster: a KvstoreCluster document as read (YAML manifest, API server object) → the
 * defaulted, validated cluster, or every problem found. What the operator runs on.
 */
import { withDefaults } from './defaults.js';
import { validateCluster, type ValidateOptions, type ValidationError } from './validate.js';
import type { KvstoreCluster, KvstoreClusterInput } from './types.js';

export type ParseResult =
  | { readonly kind: 'Valid'; readonly cluster: KvstoreCluster }
  | { readonly kind: 'Invalid'; readonly errors: readonly ValidationError[] };

export function parseCluster(doc: unknown, options: ValidateOptions = {}): ParseResult {
  const errors = validateCluster(doc, options);
  if (errors.length > 0) return { kind: 'Invalid', errors };
  return { kind: 'Valid', cluster: withDefaults(doc as KvstoreClusterInput) };
}
