/**
 * The offline chart renderer behaves like Helm where our charts rely on it (fixture chart
 * test/chart/fixtures/helmisms): values read through JSON (numbers are float64, so a large
 * number prints in exponent form unless `int`/`toYaml` is used; YAML 1.1 scalars such as `y`),
 * `include`, `tpl`, `required`, `toYaml` (sorted keys, block style), `toJson`, `fromYaml`,
 * sprig functions, `.Chart`/`.Release`/`.Template`/`.Capabilities`, missing values rendering empty,
 * values files coalesced (nested maps merge, null deletes), `_` files and blank output left out,
 * NOTES.txt apart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderChart } from '../support/chart-render/render.js';
import { repoPath } from '../deploy/support/repo.js';

const FIXTURE = repoPath('test/chart/fixtures/helmisms');
const OUT = 'helmisms/templates/out.yaml';

void test('renderer: Helm objects, functions and value typing', () => {
  const r = renderChart(FIXTURE, { releaseName: 'rel', namespace: 'ns' });
  assert.ok(r.ok, r.ok ? '' : r.error);
  assert.deepEqual(Object.keys(r.manifests), [OUT], '_helpers.tpl, NOTES.txt and blank output are not manifests');
  assert.equal(r.notes, 'notes for rel\n');
  assert.equal(
    r.manifests[OUT],
    [
      'big: 5e+07',
      'bigInt: 50000000',
      'small: 3',
      'yes11: true',
      'absent: ""',
      'name: helmisms-rel',
      'upper: "HELMISMS-REL"',
      'tpl: rel-hello',
      'chart: helmisms 1.2.3 4.5.6',
      'release: rel ns Helm',
      `template: ${OUT}`,
      'hasApps: true',
      'hasMonitoring: false',
      'obj:',
      '  a:',
      '  - x',
      '  - z',
      '  b: 1',
      '  c:',
      '    d: "true"',
      'json: {"a":["x","z"],"b":1,"c":{"d":"true"}}',
      'fromYaml: v',
      'sprig: 1,2,3 YWJj true',
      '',
    ].join('\n'),
  );
});

void test('renderer: values files coalesce over values.yaml (maps merge, null deletes), capabilities can be extended', () => {
  const r = renderChart(FIXTURE, { values: [{ obj: { b: null, e: 2 } }, { text: 'bye' }], apiVersions: ['monitoring.coreos.com/v1'] });
  assert.ok(r.ok, r.ok ? '' : r.error);
  assert.deepEqual(r.values.obj, { a: ['x', 'z'], c: { d: 'true' }, e: 2 });
  const out = r.manifests[OUT] ?? '';
  assert.match(out, /^tpl: kvstore-operator-bye$/m);
  assert.match(out, /^hasMonitoring: true$/m);
});

void test('renderer: required and template errors are results, not crashes', () => {
  const r = renderChart(FIXTURE, { values: [{ enabled: true }] });
  assert.ok(!r.ok);
  assert.match(r.error, /needed must be set/);
});
