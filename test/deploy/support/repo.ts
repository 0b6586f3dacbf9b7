/**
 * Where the repository's packaging lives, seen from a compiled test (`<build>/test/deploy/support/`):
 * the repository root is the parent of the build directory.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BUILD_ROOT } from '../../support/paths.js';

export { BUILD_ROOT };

/** The repository root (parent of `dist/` or any other build directory). */
export const REPO_ROOT = dirname(BUILD_ROOT);

/** Path of a repository file from its repository-relative path. */
export function repoPath(relative: string): string {
  return join(REPO_ROOT, relative);
}

/** A repository file's text. */
export function readRepoFile(relative: string): string {
  return readFileSync(repoPath(relative), 'utf8');
}
