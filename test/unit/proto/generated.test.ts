import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

void test('proto/gen is what `npm run proto:gen` produces from proto/*.proto', () => {
  const root = repoRoot();
  const out = mkdtempSync(join(tmpdir(), 'kvstore-gen-'));
  try {
    execFileSync(process.execPath, [join(root, 'scripts', 'proto-gen.mjs'), out], { cwd: root, stdio: 'pipe' });
    const committed = join(root, 'proto', 'gen');
    const want = files(out).map((f) => relative(out, f)).sort();
    const have = files(committed).map((f) => relative(committed, f)).sort();
    assert.deepEqual(have, want, 'generated file set differs: run `npm run proto:gen`');
    for (const f of want) {
      assert.equal(readFileSync(join(committed, f), 'utf8'), readFileSync(join(out, f), 'utf8'), `${f} is stale: run \`npm run proto:gen\``);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
