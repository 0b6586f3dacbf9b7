/**
 * validateCluster: is this document an acceptable KvstoreCluster? It checks what the API server
 * would (after applying the schema's defaults, so a manifest that leaves defaulted fields out is
 * fine), then what the schema cannot say (validate-semantic.ts), and names unknown fields. Returns
 * every problem as `{ path, message }` (empty = valid), never throws. Pure.
 */
import { API_VERSION, KIND } from './constants.js';
import { defaultSpec } from './defaults.js';
import { KvstoreClusterSpecSchema, KvstoreClusterStatusSchema, KvstoreClusterSchema, STORAGE_IMMUTABLE, TLS_IMMUTABLE } from './schema.js';
import { nameErrors, specErrors, type Target } from './validate-semantic.js';
import { schemaErrors, unknownFields } from './validate-schema.js';
import type { KvstoreCluster, KvstoreClusterSpec } from './types.js';
import type { ValidationError } from './validation-error.js';

export type { ValidationError } from './validation-error.js';
export type { Target } from './validate-semantic.js';
export { MAX_NAME_LENGTH } from './validate-semantic.js';

export interface ValidateOptions {
  /** Default `kubernetes` (the snapshot volume must then be a PVC name). */
  readonly target?: Target;
}

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Problems of a KvstoreCluster document (raw or defaulted); empty when it is valid. */
export function validateCluster(doc: unknown, options: ValidateOptions = {}): readonly ValidationError[] {
  if (!isObject(doc)) return [{ path: '', message: `must be a ${KIND} object` }];
  const out: ValidationError[] = [];
  if (doc['apiVersion'] !== API_VERSION) out.push({ path: 'apiVersion', message: `must be ${API_VERSION}` });
  if (doc['kind'] !== KIND) out.push({ path: 'kind', message: `must be ${KIND}` });
  const meta = doc['metadata'];
  if (!isObject(meta) || typeof meta['name'] !== 'string') out.push({ path: 'metadata.name', message: 'is required' });
  else out.push(...nameErrors(meta['name']));
  for (const key of Object.keys(doc)) {
    if (!(key in KvstoreClusterSchema.properties)) out.push({ path: key, message: 'is not a known field (known: apiVersion, kind, metadata, spec, status)' });
  }
  if (!('spec' in doc)) return [...out, { path: 'spec', message: 'is required' }];

  const spec = defaultSpec(doc['spec']);
  const specStructure = [...schemaErrors(KvstoreClusterSpecSchema, spec, 'spec'), ...unknownFields(KvstoreClusterSpecSchema, spec, 'spec')];
  out.push(...specStructure);
  if (specStructure.length === 0) out.push(...specErrors(spec as KvstoreClusterSpec, options.target ?? 'kubernetes'));

  if (doc['status'] !== undefined) {
    out.push(...schemaErrors(KvstoreClusterStatusSchema, doc['status'], 'status'), ...unknownFields(KvstoreClusterStatusSchema, doc['status'], 'status'));
  }
  return out;
}

/**
 * validateCluster plus what may not change from `previous` (the cluster as the operator last
 * accepted it) to `next`: spec.storage and spec.tls (the CRD enforces them with CEL transition
 * rules; local mode has no API server to do it, and there adding or removing spec.tls is refused too).
 */
export function validateClusterUpdate(previous: KvstoreCluster, next: unknown, options: ValidateOptions = {}): readonly ValidationError[] {
  const errors = validateCluster(next, options);
  if (errors.length > 0 || !isObject(next)) return errors;
  const spec = defaultSpec(next['spec']) as KvstoreClusterSpec;
  const a = previous.spec.storage;
  const b = spec.storage;
  if (a.size !== b.size || a.storageClassName !== b.storageClassName) return [{ path: 'spec.storage', message: STORAGE_IMMUTABLE }];
  if (JSON.stringify(previous.spec.tls ?? null) !== JSON.stringify(spec.tls ?? null)) return [{ path: 'spec.tls', message: TLS_IMMUTABLE }];
  return [];
}
