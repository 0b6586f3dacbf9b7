/**
 * The operator Deployment's command line is one the operator accepts: every `--flag` in
 * deploy/operator/deployment.yaml (the chart renders the same container, see test/chart) is listed
 * by `kvstore-operator run --help`. Skipped, with a note, while the build has no `run` command.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { only } from './support/operator-install.js';
import { BUILD_ROOT, readRepoFile } from './support/repo.js';
import { parseObjects } from './support/yaml-docs.js';

void test('kvstore-operator run accepts every flag the Deployment passes', (t) => {
  const main = join(BUILD_ROOT, 'operator', 'main.js');
  if (!existsSync(main)) {
    t.skip('no operator entry point in this build yet');
    return;
  }
  const help = spawnSync(process.execPath, [main, 'run', '--help'], { encoding: 'utf8', timeout: 30_000 });
  if (help.status !== 0 || !/^Usage: kvstore-operator run\b/m.test(help.stdout)) {
    t.skip(`no \`run\` command yet (${(help.stderr || help.stdout).trim().split('\n')[0] ?? ''})`);
    return;
  }
  const dep = only(parseObjects(readRepoFile('deploy/operator/deployment.yaml'), 'deployment.yaml'), 'Deployment');
  const container = ((((dep.spec as Record<string, unknown>).template as Record<string, unknown>).spec as Record<string, unknown>).containers as Record<string, unknown>[])[0];
  const args = (container?.args ?? []) as string[];
  assert.equal(args[0], 'run');
  for (const flag of args.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0] ?? a)) {
    assert.ok(help.stdout.includes(flag), `${flag} is listed by kvstore-operator run --help:\n${help.stdout}`);
  }
});
