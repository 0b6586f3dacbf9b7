/**
 * Multi-document YAML as Kubernetes reads it: YAML 1.1 scalars (as sigs.k8s.io/yaml does: `yes`,
 * `on`, `0777` keep their 1.1 meaning), `---` separated, empty documents dropped. Parse errors
 * and warnings are returned as values, naming the source.
 */
import { parseAllDocuments } from 'yaml';

export type K8sObject = Record<string, unknown> & {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: Record<string, unknown> & { readonly name: string; readonly namespace?: string };
};

export type DocsResult = { readonly ok: true; readonly docs: readonly unknown[] } | { readonly ok: false; readonly message: string };

/** Every non-empty document of `text` as plain JS values. */
export function parseDocs(text: string, source: string): DocsResult {
  const docs: unknown[] = [];
  for (const doc of parseAllDocuments(text, { version: '1.1', uniqueKeys: true })) {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length > 0) return { ok: false, message: `${source}: ${problems.map((e) => e.message).join('; ')}` };
    const value: unknown = doc.toJS({ maxAliasCount: 0 });
    if (value !== null && value !== undefined) docs.push(value);
  }
  return { ok: true, docs };
}

/** Parses `text` and checks every document is a Kubernetes object (apiVersion, kind, metadata.name); throws otherwise. */
export function parseObjects(text: string, source: string): K8sObject[] {
  const parsed = parseDocs(text, source);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.docs.map((doc, i) => {
    if (!isK8sObject(doc)) throw new Error(`${source}: document ${i + 1} is not a Kubernetes object (apiVersion, kind, metadata.name)`);
    return doc;
  });
}

export function isK8sObject(value: unknown): value is K8sObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  const meta = o.metadata as Record<string, unknown> | undefined;
  return typeof o.apiVersion === 'string' && typeof o.kind === 'string' && typeof meta === 'object' && meta !== null && typeof meta.name === 'string';
}

/** `kind/namespace/name` (namespace empty for cluster-scoped objects). */
export function objectId(o: K8sObject): string {
  return `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}
