/** Starting on an etcd 3.4 data dir: a one-time conversion in place (import-data-dir.ts). */
export { importEtcdDataDir, type ImportOutcome } from './import-data-dir.js';
export { planImport, type ImportPlan, type ImportPlanOutcome } from './plan.js';
