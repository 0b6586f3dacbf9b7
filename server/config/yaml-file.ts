/**
 * Flags from the YAML configuration file. Keys are the flag names without dashes; TLS settings
 * are nested under `client-transport-security` / `peer-transport-security` (see each row's
 * `yaml` path). A key that is absent or null keeps the default. Unknown keys are reported as
 * warnings (etcd ignores them silently). Value types follow value-parse.ts `parseYaml`.
 */
import { parseDocument } from 'yaml';
import type { VersionProfile } from '../version/profile.js';
import type { FlagValue } from './flag-spec.js';
import { FLAGS } from './flag-table.js';
import { parseYaml } from './value-parse.js';

export type YamlRead =
  | { readonly ok: true; readonly values: ReadonlyMap<string, FlagValue>; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** YAML-only keys of etcd that kvstore accepts and ignores. */
const EXTRA_KEYS = new Set(['socket-options']);

/** Reads the text of the file at `path` (the path is used in messages only). */
export function readYamlConfig(text: string, path: string, profile: VersionProfile): YamlRead {
  const doc = parseDocument(text, { prettyErrors: false });
  const firstError = doc.errors[0];
  if (firstError !== undefined) return { ok: false, message: `cannot parse config file ${JSON.stringify(path)}: ${firstError.message}` };
  const root: unknown = doc.toJS();
  if (root === null || root === undefined) return { ok: true, values: new Map(), warnings: [] };
  if (!isMapping(root)) return { ok: false, message: `config file ${JSON.stringify(path)} must hold a mapping of keys to values` };

  const values = new Map<string, FlagValue>();
  const known = new Map<string, Set<string>>(); // top-level key → nested keys (empty set: a leaf)
  for (const spec of FLAGS) {
    if (spec.yaml === null) continue;
    const keyPath = spec.yaml ?? [spec.name];
    const [top = spec.name, ...nested] = keyPath;
    const nestedKnown = known.get(top) ?? new Set<string>();
    nested.forEach((k) => nestedKnown.add(k));
    known.set(top, nestedKnown);
    const raw = lookup(root, keyPath);
    if (raw === undefined || raw === null) continue;
    const parsed = parseYaml(spec.type, raw, profile);
    if (!parsed.ok) {
      return { ok: false, message: `invalid value ${JSON.stringify(raw)} for key "${keyPath.join('.')}" in config file ${JSON.stringify(path)}: ${parsed.reason}` };
    }
    values.set(spec.name, parsed.value);
  }
  return { ok: true, values, warnings: unknownKeys(root, known, path) };
}

function unknownKeys(root: Record<string, unknown>, known: ReadonlyMap<string, ReadonlySet<string>>, path: string): string[] {
  const warnings: string[] = [];
  const warn = (key: string) => warnings.push(`unknown key "${key}" in config file ${JSON.stringify(path)} ignored`);
  for (const [key, value] of Object.entries(root)) {
    const nested = known.get(key);
    if (nested === undefined) {
      if (!EXTRA_KEYS.has(key)) warn(key);
    } else if (nested.size > 0 && isMapping(value)) {
      Object.keys(value).filter((k) => !nested.has(k)).forEach((k) => warn(`${key}.${k}`));
    }
  }
  return warnings;
}

function lookup(root: Record<string, unknown>, keyPath: readonly string[]): unknown {
  let node: unknown = root;
  for (const key of keyPath) {
    if (!isMapping(node)) return undefined;
    node = node[key];
  }
  return node;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
