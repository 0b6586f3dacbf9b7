/**
 * The API server's validation rules that catch operator mistakes the test server should not let
 * through: a StatefulSet's selector must match its template's labels (create and update), and an
 * update may change only replicas, ordinals, template, updateStrategy,
 * persistentVolumeClaimRetentionPolicy and minReadySeconds of its spec. Pure; answers the
 * field causes of a 422 (empty when valid).
 */
import { matchesSelectorObject, type LabelSelectorObject } from './selectors.js';
import type { FieldCause } from './status.js';
import type { KubeObject } from './types.js';

const MUTABLE_SET_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

interface SetSpec {
  selector?: LabelSelectorObject;
  template?: { metadata?: { labels?: Record<string, string> } };
  [key: string]: unknown;
}

function typeId(o: KubeObject): string {
  return `${o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : ''}/${o.kind}`;
}

function setCauses(spec: SetSpec): FieldCause[] {
  const labels = spec.template?.metadata?.labels ?? {};
  const sel = spec.selector;
  const empty = sel === undefined || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0);
  if (empty) return [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' }];
  if (!matchesSelectorObject(sel, labels)) {
    return [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(labels)}: \`selector\` does not match template \`labels\``, field: 'spec.template.metadata.labels' }];
  }
  return [];
}

/** Causes that make a create invalid. */
export function createCauses(o: KubeObject): FieldCause[] {
  return typeId(o) === 'apps/StatefulSet' ? setCauses((o.spec ?? {}) as SetSpec) : [];
}

/** Causes that make a main-resource update invalid. */
export function updateCauses(old: KubeObject, next: KubeObject): FieldCause[] {
  if (typeId(old) !== 'apps/StatefulSet') return [];
  const strip = (spec: unknown): string => {
    const copy: Record<string, unknown> = { ...((spec ?? {}) as Record<string, unknown>) };
    for (const f of MUTABLE_SET_FIELDS) delete copy[f];
    return JSON.stringify(Object.keys(copy).sort().map((k) => [k, copy[k]]));
  };
  if (strip(old.spec) !== strip(next.spec)) {
    return [{
      reason: 'FieldValueForbidden',
      message: "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      field: 'spec',
    }];
  }
  return setCauses((next.spec ?? {}) as SetSpec);
}
