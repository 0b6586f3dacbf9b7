/**
 * A fresh deployment's first seconds are not its steady state (code still being compiled,
 * connections and caches cold; a Node process needs a few seconds of load before its hot paths
 * are optimized). Each deployment therefore takes an unmeasured load — puts from 100 clients
 * over 10 connections spread over all its members — once, before the first measured row.
 */
import type { Deployment } from './deployment.js';
import type { Generator } from './generator.js';

export async function warmDeployment(d: Deployment, seconds: number, generator: Generator, valueSize: number): Promise<void> {
  if (seconds <= 0) return;
  await generator.run({
    load: { kind: 'put', keySpace: 100_000, sequentialKeys: false },
    targets: d.members.map((m) => m.target),
    clients: 100,
    connections: 10,
    valueSize,
    warmupMs: seconds * 1000,
    measureMs: 1,
  });
}
