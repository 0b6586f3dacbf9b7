/**
 * A fresh deployment's first seconds are not its steady state (code still being compiled,
 * connections and caches cold; a Node process needs a few seconds of load before its hot paths
 * are optimized). Each deployment therefore takes an unmeasured load — puts from 100 clients
 * over 10 connections spread over all its members — once, before the first measured row.
 */
import type { Deployment } from './deployment.js';
import type { LoadParams } from './load/protocol.js';
import { runLoad } from './load/run-load.js';

export async function warmDeployment(d: Deployment, seconds: number, procs: number, params: LoadParams): Promise<void> {
  if (seconds <= 0) return;
  await runLoad({
    kind: 'put',
    targets: d.members.map((m) => m.target),
    clients: 100,
    connections: 10,
    procs,
    params,
    warmupMs: seconds * 1000,
    measureMs: 1,
  });
}
