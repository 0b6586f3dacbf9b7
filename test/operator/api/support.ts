// Helpers of the operator API tests: the repository root (fixtures and generated files are read
// from the source tree), fixture manifests, an ajv validator for the CRD's openAPIV3Schema.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { clusterOpenApiSchema } from '../../../operator/api/crd.js';

export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

export const FIXTURES = ['minimal', 'full', 'v2', 'with-status'] as const;

export function fixture(name: string): Record<string, unknown> {
  return parse(readFileSync(join(repoRoot(), 'test', 'operator', 'api', 'fixtures', `${name}.yaml`), 'utf8')) as Record<string, unknown>;
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i;

/** The CRD schema compiled with ajv (Kubernetes' own keywords known, formats as the API server reads them). */
export function crdValidator(): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false, formats: { 'date-time': RFC3339, int64: true } });
  for (const k of ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-int-or-string', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-validations']) {
    ajv.addKeyword(k);
  }
  return ajv.compile(clusterOpenApiSchema());
}

/** A manifest with the given spec (and no status). */
export function cluster(spec: Record<string, unknown>, name = 'demo'): Record<string, unknown> {
  return { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name }, spec };
}
