/**
 * deploy/grafana/kvstore-dashboard.json: valid dashboard JSON whose every query names metrics
 * that exist — member metrics as listed in server/metrics/README.md (taken from a running
 * member's /metrics) and operator metrics as the operator registers them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { createOperatorMetrics } from '../../operator/runtime/metrics.js';

const root = new URL('../../../', import.meta.url);

interface Panel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly gridPos: { readonly x: number; readonly w: number };
  readonly targets?: readonly { readonly expr: string }[];
}

const dashboard = JSON.parse(readFileSync(new URL('deploy/grafana/kvstore-dashboard.json', root), 'utf8')) as { panels: Panel[] };

async function knownMetricNames(): Promise<Set<string>> {
  const readme = readFileSync(new URL('server/metrics/README.md', root), 'utf8');
  const names = new Set([...readme.matchAll(/^\| `([a-z0-9_:]+)` \|/gm)].map((m) => m[1]!));
  const registry = new Registry();
  createOperatorMetrics(registry);
  for (const m of await registry.getMetricsAsJSON()) names.add(m.name);
  return names;
}

void test('panels have unique ids and fit the 24-column grid', () => {
  const ids = dashboard.panels.map((p) => p.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const p of dashboard.panels) assert.ok(p.gridPos.x + p.gridPos.w <= 24, p.title);
});

void test('every metric a query names exists (member README table or operator registry)', async () => {
  const known = await knownMetricNames();
  const missing: string[] = [];
  for (const p of dashboard.panels) {
    for (const t of p.targets ?? []) {
      for (const [name] of t.expr.matchAll(/\b(?:kvstore|grpc_server)_[a-z0-9_]+/g)) {
        const base = name.replace(/_bucket$/, '');
        if (!known.has(base)) missing.push(`${p.title}: ${name}`);
      }
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(dashboard.panels.some((p) => p.targets?.some((t) => t.expr.includes('kvstore_operator_'))), 'operator panels present');
});
