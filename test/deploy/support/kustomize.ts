/**
 * A minimal `kubectl kustomize`: enough for kustomizations that only list `resources` (files or
 * directories holding their own kustomization). It checks what kustomize would refuse: other
 * fields it does not implement, files outside the kustomization root, missing files, documents
 * that are not Kubernetes objects, and two objects with the same kind/namespace/name.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { parseDocs, parseObjects, objectId, type K8sObject } from './yaml-docs.js';

export interface Rendered {
  /** Every object, in resource-list order. */
  readonly objects: readonly K8sObject[];
  /** Each object's source file (same order). */
  readonly sources: readonly string[];
}

const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const SUPPORTED_KEYS = new Set(['apiVersion', 'kind', 'resources']);

/** The kustomization file of `dir`; throws when there is none. */
export function kustomizationFile(dir: string): string {
  const found = KUSTOMIZATION_FILES.map((f) => join(dir, f)).filter((f) => existsSync(f));
  if (found.length !== 1) throw new Error(`${dir}: expected exactly one of ${KUSTOMIZATION_FILES.join(', ')}, found ${found.length}`);
  return found[0] as string;
}

/** The `resources` list of the kustomization in `dir`, checked for shape. */
export function resourceList(dir: string): string[] {
  const file = kustomizationFile(dir);
  const parsed = parseDocs(readFileSync(file, 'utf8'), file);
  if (!parsed.ok) throw new Error(parsed.message);
  const [doc] = parsed.docs as Record<string, unknown>[];
  if (parsed.docs.length !== 1 || doc === undefined) throw new Error(`${file}: expected one document`);
  if (doc.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || doc.kind !== 'Kustomization') {
    throw new Error(`${file}: apiVersion/kind must be kustomize.config.k8s.io/v1beta1 Kustomization`);
  }
  const extra = Object.keys(doc).filter((k) => !SUPPORTED_KEYS.has(k));
  if (extra.length > 0) throw new Error(`${file}: fields this renderer does not implement: ${extra.join(', ')}`);
  const resources = doc.resources;
  if (!Array.isArray(resources) || !resources.every((r) => typeof r === 'string')) throw new Error(`${file}: resources must be a list of paths`);
  return resources as string[];
}

/** Renders the kustomization in `dir` (resources only), recursing into directories. */
export function kustomize(dir: string, root: string = dir): Rendered {
  const objects: K8sObject[] = [];
  const sources: string[] = [];
  for (const entry of resourceList(dir)) {
    if (/^[a-z]+:\/\//.test(entry)) throw new Error(`${dir}: remote resource ${entry} (offline rendering only)`);
    const path = resolve(dir, entry);
    const rel = relative(root, path);
    if (rel.startsWith('..') || rel.startsWith(sep)) throw new Error(`${entry}: outside the kustomization root ${root}`);
    if (!existsSync(path)) throw new Error(`${dir}: resource ${entry} does not exist`);
    if (statSync(path).isDirectory()) {
      const sub = kustomize(path, root);
      objects.push(...sub.objects);
      sources.push(...sub.sources);
    } else {
      for (const o of parseObjects(readFileSync(path, 'utf8'), path)) {
        objects.push(o);
        sources.push(path);
      }
    }
  }
  const seen = new Set<string>();
  for (const o of objects) {
    const id = objectId(o);
    if (seen.has(id)) throw new Error(`${dir}: ${id} is defined twice`);
    seen.add(id);
  }
  return { objects, sources };
}
