// Shared helpers for the config tests: run loadConfig with fixed inputs and unwrap outcomes.
import assert from 'node:assert/strict';
import { loadConfig } from '../../../server/config/load-config.js';
import type { ConfigOutcome, ServerConfig } from '../../../server/config/types.js';

export type Env = Record<string, string | undefined>;

/** A readFile port over an in-memory map of files. */
export function files(map: Record<string, string>): (path: string) => string {
  return (path) => {
    const text = map[path];
    if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
    return text;
  };
}

export function load(argv: readonly string[], env: Env = {}, fs: Record<string, string> = {}): ConfigOutcome {
  return loadConfig(argv, env, files(fs));
}

/** Loads and asserts a `run` outcome. */
export function run(argv: readonly string[], env: Env = {}, fs: Record<string, string> = {}): { config: ServerConfig; warnings: string[] } {
  const out = load(argv, env, fs);
  assert.equal(out.kind, 'run', out.kind === 'error' ? out.message : out.kind);
  if (out.kind !== 'run') throw new Error('unreachable');
  return { config: out.config, warnings: out.warnings };
}

/** Loads and returns the error message (asserts an `error` outcome). */
export function failure(argv: readonly string[], env: Env = {}, fs: Record<string, string> = {}): string {
  const out = load(argv, env, fs);
  assert.equal(out.kind, 'error', `expected an error, got ${out.kind}`);
  if (out.kind !== 'error') throw new Error('unreachable');
  return out.message;
}
