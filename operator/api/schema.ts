/**
 * The one source of the `KvstoreCluster` schema: spec (schema-spec.ts), status
 * (schema-status.ts) and the whole document. types.ts derives the TypeScript types from these,
 * crd.ts turns them into the CRD's `openAPIV3Schema`, defaults.ts / validate.ts apply them.
 *
 * `KvstoreClusterSchema` describes a document as the operator handles it: apiVersion and kind
 * fixed, a metadata object with a name (Kubernetes owns the rest of metadata's schema).
 */
import { Type } from 'typebox';
import { API_VERSION, KIND } from './constants.js';
import { stringEnum } from './schema-kinds.js';
import { KvstoreClusterSpecSchema } from './schema-spec.js';
import { KvstoreClusterStatusSchema } from './schema-status.js';

export * from './schema-spec.js';
export * from './schema-security.js';
export * from './schema-status.js';
export * from './schema-backup.js';
export * from './schema-restore.js';

export const ObjectMetaSchema = Type.Object({ name: Type.String({ minLength: 1 }) });

export const KvstoreClusterSchema = Type.Object({
  apiVersion: stringEnum([API_VERSION] as const),
  kind: stringEnum([KIND] as const),
  metadata: ObjectMetaSchema,
  spec: KvstoreClusterSpecSchema,
  status: Type.Optional(KvstoreClusterStatusSchema),
});
