// Invariants of the flag table and the help text generated from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FLAGS } from '../../../server/config/flag-table.js';
import { defaultText } from '../../../server/config/flag-spec.js';
import { helpText } from '../../../server/config/help.js';
import { parseText } from '../../../server/config/value-parse.js';
import { MINOR_VERSIONS } from '../../../server/version/minor.js';
import { profileOf } from '../../../server/version/profile.js';
import { load, run } from './helpers.js';

void test('flag names are unique, kebab-case, without dashes in front', () => {
  const names = FLAGS.map((f) => f.name);
  assert.equal(new Set(names).size, names.length);
  for (const name of names) assert.match(name, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, name);
});

void test('every default parses under every version profile', () => {
  for (const minor of MINOR_VERSIONS) {
    for (const spec of FLAGS) {
      const r = parseText(spec.type, defaultText(spec, profileOf(minor)));
      assert.ok(r.ok, `${minor} --${spec.name}: ${r.ok ? '' : r.reason}`);
    }
  }
});

void test('every flag can be given with its default text', () => {
  for (const spec of FLAGS) {
    if (spec.name === 'config-file' || spec.name === 'version') continue;
    const text = defaultText(spec, profileOf('3.5'));
    const out = load([`--${spec.name}=${text}`]);
    if (spec.name === 'listen-client-urls') continue; // needs --advertise-client-urls as well
    if (spec.name === 'initial-cluster') continue; // '' is an explicit empty cluster
    assert.equal(out.kind, 'run', `--${spec.name}=${text}: ${out.kind === 'error' ? out.message : ''}`);
  }
});

void test('help lists every flag with its default and the environment rule', () => {
  const text = helpText(profileOf('3.5'));
  for (const spec of FLAGS) assert.ok(text.includes(`--${spec.name}`), spec.name);
  assert.ok(text.startsWith('Usage:\n\n  kvstore [flags]\n'));
  assert.ok(text.includes("  --name 'default'\n    Human-readable name for this member.\n"));
  assert.ok(text.includes("  --data-dir '${name}.kvstore'\n"));
  assert.ok(text.includes("  --pre-vote 'true'\n"));
  assert.ok(text.includes('KVSTORE_DATA_DIR'));
  assert.ok(text.includes('KVSTORE_SERVER_VERSION'));
});

void test('help shows the defaults of the selected version', () => {
  const out = load(['--help'], { KVSTORE_SERVER_VERSION: '3.3.0' });
  assert.equal(out.kind, 'help');
  if (out.kind === 'help') {
    assert.ok(out.text.includes("  --pre-vote 'false'\n"));
    assert.ok(out.text.includes("  --enable-v2 'true'\n"));
    assert.ok(out.text.includes("  --logger 'capnslog'\n"));
  }
});

void test('flags newer than the presented version warn but are accepted', () => {
  const { config, warnings } = run(['--pre-vote'], { KVSTORE_SERVER_VERSION: '3.3.10' });
  assert.equal(config.preVote, true);
  assert.deepEqual(warnings, ['flag --pre-vote was added in 3.4; accepted although the server version line is 3.3']);
});
