/**
 * The `KvstoreCluster` CustomResourceDefinition (apiextensions.k8s.io/v1), built from the typebox
 * schema (schema.ts): `kvstore.io/v1alpha1`, namespaced, status subresource, printer columns.
 * scripts/crd-gen.mjs writes it to deploy/crd/ as YAML.
 *
 * Schema to CRD: fields with a `default` leave `required` (the API server fills them in before
 * it validates, and clients validating a manifest must accept them absent); the result is a
 * *structural* schema (typed nodes, no $id/$schema/const/patternProperties, pass-through
 * objects marked x-kubernetes-preserve-unknown-fields). Pure.
 */
import type { ICustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition';
import type { IJSONSchemaProps } from 'kubernetes-models/apiextensions.k8s.io/v1/JSONSchemaProps';
import { CRD_NAME, GROUP, KIND, PLURAL, SHORT_NAMES, SINGULAR, VERSION } from './constants.js';
import { KvstoreClusterSpecSchema, KvstoreClusterStatusSchema } from './schema.js';

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A typebox schema as plain JSON in CRD form (see the header). */
export function toCrdSchema(schema: unknown): IJSONSchemaProps {
  return strip(JSON.parse(JSON.stringify(schema)) as unknown) as IJSONSchemaProps;
}

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$id' || k === '$schema' || k.startsWith('~')) continue;
    out[k] = k === 'default' || k === 'enum' ? v : strip(v);
  }
  const props = out['properties'];
  if (Array.isArray(out['required']) && isObject(props)) {
    const required = (out['required'] as string[]).filter((name) => !(isObject(props[name]) && 'default' in props[name]));
    if (required.length > 0) out['required'] = required;
    else delete out['required'];
  }
  return out;
}

/** `openAPIV3Schema` of v1alpha1. */
export function clusterOpenApiSchema(): IJSONSchemaProps {
  return {
    type: 'object',
    description: 'A kvstore cluster: members run as a StatefulSet; the operator upgrades them one at a time, health-gated, after a leader snapshot.',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: toCrdSchema(KvstoreClusterSpecSchema),
      status: toCrdSchema(KvstoreClusterStatusSchema),
    },
    required: ['spec'],
  };
}

/** The CustomResourceDefinition object. */
export function clusterCrd(): ICustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: CRD_NAME,
      labels: { 'app.kubernetes.io/name': 'kvstore-operator', 'app.kubernetes.io/part-of': 'kvstore' },
    },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { kind: KIND, listKind: `${KIND}List`, plural: PLURAL, singular: SINGULAR, shortNames: [...SHORT_NAMES] },
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Desired', type: 'string', jsonPath: '.spec.version', description: 'Version the members should run' },
            { name: 'Cluster', type: 'string', jsonPath: '.status.clusterVersion', description: 'Cluster version the members report' },
            { name: 'Ready', type: 'string', jsonPath: '.status.readyMembers', description: 'Healthy members / size' },
            { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: { openAPIV3Schema: clusterOpenApiSchema() },
        },
      ],
    },
  };
}
