// Runs the test suite with node's test runner over the compiled tests.
// Usage: node scripts/run-tests.mjs [pattern…]   e.g. `npm test -- mvcc` runs files whose path contains "mvcc".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const filters = process.argv.slice(2);

function collect(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...collect(p));
    else if (entry.name.endsWith('.test.js')) files.push(p);
  }
  return files;
}

const files = collect(join(root, 'dist', 'test'))
  .filter((f) => filters.length === 0 || filters.some((x) => relative(root, f).includes(x)))
  .sort();
// The spec reporter ends with a list of the failing tests, so the tail of a long log names them.
const reporter = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
const res = spawnSync(process.execPath, ['--test', ...reporter, '--test-concurrency=2', '--test-timeout=300000', ...files], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
