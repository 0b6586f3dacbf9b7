/**
 * Patch documents: JSON merge patch (RFC 7386, also used for strategic merge patch, which
 * this server does not distinguish: lists are replaced, never merged by key) and JSON patch
 * (RFC 6902: add, remove, replace, move, copy, test).
 *
 * Pure functions; the input is never modified. A JSON patch that cannot be applied answers
 * a `PatchError` (the server turns it into a 422).
 */
import { clone, type Json, type JsonObject } from './types.js';

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** RFC 7386: objects merge recursively, null deletes, anything else replaces. */
export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  const out: JsonObject = isObject(target) ? clone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Why a JSON patch could not be applied. */
export class PatchError {
  constructor(readonly message: string) {}
}

/** One parsed RFC 6901 pointer. */
function pointer(path: string): string[] | PatchError {
  if (path === '') return [];
  if (!path.startsWith('/')) return new PatchError(`invalid JSON pointer ${path}`);
  return path.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

type Container = JsonObject | Json[];

/** The parent container of a pointer and the last token. */
function parentOf(doc: Json, tokens: readonly string[]): { parent: Container; last: string } | PatchError {
  let cur: Json | undefined = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isObject(cur)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined || cur === null) return new PatchError(`path not found at ${t}`);
  }
  if (!Array.isArray(cur) && !isObject(cur)) return new PatchError('parent is not a container');
  return { parent: cur, last: tokens[tokens.length - 1] ?? '' };
}

function getAt(doc: Json, tokens: readonly string[]): Json | undefined {
  let cur: Json | undefined = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isObject(cur)) cur = cur[t];
    else return undefined;
  }
  return cur;
}

/** Removes in place; answers the document or why not. */
function removeAt(doc: Json, tokens: readonly string[]): Json | PatchError {
  const p = parentOf(doc, tokens);
  if (p instanceof PatchError) return p;
  if (Array.isArray(p.parent)) {
    const i = Number(p.last);
    if (!Number.isInteger(i) || i < 0 || i >= p.parent.length) return new PatchError(`index ${p.last} out of range`);
    p.parent.splice(i, 1);
  } else {
    if (!(p.last in p.parent)) return new PatchError(`no member ${p.last} to remove`);
    delete p.parent[p.last];
  }
  return doc;
}

/** Adds in place (the root pointer replaces the document); answers the document or why not. */
function addAt(doc: Json, tokens: readonly string[], value: Json): Json | PatchError {
  if (tokens.length === 0) return value;
  const p = parentOf(doc, tokens);
  if (p instanceof PatchError) return p;
  if (Array.isArray(p.parent)) {
    const i = p.last === '-' ? p.parent.length : Number(p.last);
    if (!Number.isInteger(i) || i < 0 || i > p.parent.length) return new PatchError(`index ${p.last} out of range`);
    p.parent.splice(i, 0, value);
  } else {
    p.parent[p.last] = value;
  }
  return doc;
}

function applyOne(doc: Json, raw: Json): Json | PatchError {
  if (!isObject(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') return new PatchError('invalid operation');
  const path = pointer(raw.path);
  if (path instanceof PatchError) return path;
  const value = clone(raw.value ?? null);
  switch (raw.op) {
    case 'add':
      return addAt(doc, path, value);
    case 'remove':
      return removeAt(doc, path);
    case 'replace': {
      if (getAt(doc, path) === undefined) return new PatchError(`replace: path ${raw.path} not found`);
      if (path.length === 0) return value;
      const removed = removeAt(doc, path);
      return removed instanceof PatchError ? removed : addAt(removed, path, value);
    }
    case 'move':
    case 'copy': {
      const from = typeof raw.from === 'string' ? pointer(raw.from) : new PatchError('from is required');
      if (from instanceof PatchError) return from;
      const moved = getAt(doc, from);
      if (moved === undefined) return new PatchError(`${raw.op}: path ${String(raw.from)} not found`);
      const copy = clone(moved);
      const base = raw.op === 'move' ? removeAt(doc, from) : doc;
      return base instanceof PatchError ? base : addAt(base, path, copy);
    }
    case 'test':
      return JSON.stringify(getAt(doc, path)) === JSON.stringify(raw.value) ? doc : new PatchError(`test failed at ${raw.path}`);
    default:
      return new PatchError(`unknown op ${raw.op}`);
  }
}

/** RFC 6902 over a copy of `doc`. */
export function jsonPatch(doc: Json, ops: Json): Json | PatchError {
  if (!Array.isArray(ops)) return new PatchError('a JSON patch must be an array of operations');
  let out: Json = clone(doc);
  for (const op of ops) {
    const next = applyOne(out, op);
    if (next instanceof PatchError) return next;
    out = next;
  }
  return out;
}
