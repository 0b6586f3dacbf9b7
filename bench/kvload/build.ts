/**
 * Builds the Go load generator (bench/go/kvload) on first use, into `<outDir>/bin/kvload`, and
 * again whenever a .go source is newer than the binary (bench/go-build.ts: offline, GOPATH mode,
 * against Debian's clientv3); the Go build cache lives in `<outDir>/go-cache`.
 *
 * Fails with a message naming the missing apt package when Go or the clientv3 sources are absent.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureGoBinary } from '../go-build.js';

/** The kvload sources: bench/go/kvload in the source tree that holds this (compiled) file. */
export function kvloadSourceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'bench', 'go', 'kvload');
    if (existsSync(join(candidate, 'main.go'))) return candidate;
    dir = resolve(dir, '..');
  }
  throw new Error(`bench/go/kvload/main.go not found above ${fileURLToPath(import.meta.url)}`);
}

/**
 * Path of an up-to-date kvload binary under `outDir`, building it first when needed.
 * `log` hears about a build (it takes a few seconds, more with a cold cache).
 */
export async function ensureKvload(outDir: string, log: (line: string) => void = () => {}): Promise<string> {
  const src = kvloadSourceDir();
  const out = resolve(outDir);
  return ensureGoBinary({ binary: join(out, 'bin', 'kvload'), sourceDir: src, args: ['build', '.'], cwd: src, cacheDir: join(out, 'go-cache'), log });
}
