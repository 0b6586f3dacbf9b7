// Runs the test suite with node's test runner over the compiled tests.
// Usage: node scripts/run-tests.mjs [pattern…]   e.g. `npm test -- mvcc` runs files whose path contains "mvcc".
// Files under a SLOW directory (the container images: a cold run builds them, minutes) run in a
// second `node --test` beside the others, with a bound of their own; their report follows the main one.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve, dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const filters = process.argv.slice(2);
const SLOW = [{ dir: join('dist', 'test', 'images') + sep, timeoutMs: 1_800_000 }];

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
const slowOf = (f) => SLOW.find((s) => relative(root, f).startsWith(s.dir));

/** One `node --test` over `list`; resolves with its exit code (and its output when `capture`). */
function runTests(list, timeoutMs, capture) {
  // The spec reporter ends with a list of the failing tests, so the tail of a long log names them.
  const reporter = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
  const child = spawn(process.execPath, ['--test', ...reporter, '--test-concurrency=2', `--test-timeout=${timeoutMs}`, ...list], {
    cwd: root,
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  const chunks = [];
  child.stdout?.on('data', (c) => chunks.push(c));
  child.stderr?.on('data', (c) => chunks.push(c));
  return new Promise((done) => child.on('close', (code) => done({ code: code ?? 1, out: Buffer.concat(chunks).toString() })));
}

const runs = [];
const main = files.filter((f) => slowOf(f) === undefined);
if (main.length > 0) runs.push(runTests(main, 300_000, false));
for (const s of SLOW) {
  const list = files.filter((f) => slowOf(f) === s);
  if (list.length > 0) runs.push(runTests(list, s.timeoutMs, main.length > 0));
}
const results = await Promise.all(runs);
for (const r of results.slice(main.length > 0 ? 1 : 0)) if (r.out !== '') process.stdout.write(`\n${r.out}`);
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
