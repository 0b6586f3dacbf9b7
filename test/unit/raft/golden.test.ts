/**
 * Golden transcripts of Raft scenarios (testdata/*.txt, read from the SOURCE tree). A mismatch
 * fails the test and shows the diff; run with UPDATE_GOLDEN=1 to rewrite the files instead.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { formatGolden, Interpreter, parseGolden } from './harness/golden.js';
import { repoRoot } from './harness/repo-root.js';

const dir = join(repoRoot(), 'test', 'unit', 'raft', 'testdata');
const update = process.env['UPDATE_GOLDEN'] === '1';

for (const file of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
  void test(`golden ${file}`, () => {
    const path = join(dir, file);
    const blocks = parseGolden(readFileSync(path, 'utf8'));
    const it = new Interpreter();
    const actual = blocks.map((b) => ({ ...b, expected: b.command === '' ? [] : it.run(b.command) }));
    if (update) {
      writeFileSync(path, formatGolden(actual));
      return;
    }
    for (const [k, b] of blocks.entries()) {
      assert.deepEqual(actual[k]!.expected, b.expected, `${file}: output of ${JSON.stringify(b.command)} differs`);
    }
  });
}
