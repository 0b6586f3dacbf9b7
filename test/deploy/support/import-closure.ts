/**
 * The files a compiled entry point loads: relative static and dynamic imports followed from the
 * entry, and the bare package names (npm packages, without node built-ins) it needs. Used to
 * check that a container image's final stage copies everything its entry point loads and that
 * production dependencies cover every package it imports.
 */
import { builtinModules } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface Closure {
  readonly files: ReadonlySet<string>;
  readonly packages: ReadonlySet<string>;
  /** Relative imports that point at no file. */
  readonly missing: readonly string[];
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(=])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
const BUILTINS = new Set(builtinModules);

/** Package name of a bare specifier (`@scope/name/sub` → `@scope/name`, `name/sub` → `name`). */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

export function importClosure(entry: string): Closure {
  const files = new Set<string>();
  const packages = new Set<string>();
  const missing: string[] = [];
  const queue = [resolve(entry)];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (spec === undefined) continue;
      if (spec.startsWith('.') || spec.startsWith('/')) {
        const target = resolve(dirname(file), spec);
        if (existsSync(target)) queue.push(target);
        else missing.push(`${file}: ${spec}`);
      } else if (!spec.startsWith('node:') && !BUILTINS.has(packageName(spec))) {
        packages.add(packageName(spec));
      }
    }
  }
  return { files, packages, missing };
}
