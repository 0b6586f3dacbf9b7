/**
 * Label selectors (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, comma = and)
 * and field selectors (`metadata.name=x`, `metadata.namespace=x`, `status.phase=x`,
 * `spec.nodeName=x`, with `=`, `==`, `!=`), as the API server's list and watch take them.
 * Pure; an unparsable selector answers `{ error }` (a 400).
 */
import type { KubeObject } from './types.js';

/** A compiled selector: true when the object matches. */
export type Matcher = (obj: KubeObject) => boolean;

/** Matches everything. */
export const everything: Matcher = () => true;

/** Splits on commas outside parentheses. */
function terms(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else {
      cur += ch;
    }
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out.filter((t) => t !== '');
}

type LabelTest = (labels: Readonly<Record<string, string>>) => boolean;

function labelTerm(term: string): LabelTest | { error: string } {
  const set = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
  if (set !== null) {
    const [, key = '', op, list = ''] = set;
    const values = list.split(',').map((v) => v.trim());
    return op === 'in'
      ? (l) => l[key] !== undefined && values.includes(l[key])
      : (l) => l[key] === undefined || !values.includes(l[key]);
  }
  const eq = /^([^\s!=]+)\s*(==|=|!=)\s*([^\s]*)$/.exec(term);
  if (eq !== null) {
    const [, key = '', op, value = ''] = eq;
    return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  if (/^![^\s!=]+$/.test(term)) return (l) => l[term.slice(1)] === undefined;
  if (/^[^\s!=()]+$/.test(term)) return (l) => l[term] !== undefined;
  return { error: `unable to parse requirement: ${term}` };
}

/** Compiles a labelSelector query value. */
export function labelSelector(text: string | null): Matcher | { error: string } {
  if (text === null || text.trim() === '') return everything;
  const tests: LabelTest[] = [];
  for (const t of terms(text)) {
    const compiled = labelTerm(t);
    if ('error' in compiled) return compiled;
    tests.push(compiled);
  }
  return (obj) => tests.every((test) => test(obj.metadata.labels ?? {}));
}

function fieldValue(obj: KubeObject, path: string): string | undefined {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === null ? undefined : String(cur);
}

/** Compiles a fieldSelector query value. */
export function fieldSelector(text: string | null): Matcher | { error: string } {
  if (text === null || text.trim() === '') return everything;
  const tests: Matcher[] = [];
  for (const t of terms(text)) {
    const m = /^([A-Za-z.]+)\s*(==|=|!=)\s*(.*)$/.exec(t);
    if (m === null) return { error: `invalid selector: '${t}'; can't understand '${t}'` };
    const [, path = '', op, value = ''] = m;
    tests.push(op === '!=' ? (o) => (fieldValue(o, path) ?? '') !== value : (o) => (fieldValue(o, path) ?? '') === value);
  }
  return (obj) => tests.every((test) => test(obj));
}

/** Both selectors of a request, or the first error. */
export function selectorsOf(params: URLSearchParams): Matcher | { error: string } {
  const l = labelSelector(params.get('labelSelector'));
  if ('error' in l) return l;
  const f = fieldSelector(params.get('fieldSelector'));
  if ('error' in f) return f;
  return (obj) => l(obj) && f(obj);
}

/** A `metav1.LabelSelector` object (matchLabels, matchExpressions). */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/**
 * true when `labels` match a LabelSelector object. An empty selector matches everything;
 * an unknown operator matches nothing.
 */
export function matchesSelectorObject(sel: LabelSelectorObject | undefined, labels: Readonly<Record<string, string>>): boolean {
  if (sel === undefined) return false;
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = labels[e.key] !== undefined;
    const inValues = has && (e.values ?? []).includes(labels[e.key] ?? '');
    const ok = e.operator === 'In' ? inValues : e.operator === 'NotIn' ? !inValues : e.operator === 'Exists' ? has : e.operator === 'DoesNotExist' ? !has : false;
    if (!ok) return false;
  }
  return true;
}
