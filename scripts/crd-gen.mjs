// Writes the KvstoreCluster CRD (deploy/crd/kvstore.io_kvstoreclusters.yaml) from the compiled
// operator/api (the one schema source). Usage: node scripts/crd-gen.mjs [distDir] [outFile]
// (defaults: dist, the committed path). Build first (`npm run build`, or tsc --outDir <distDir>).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(root, process.argv[2] ?? 'dist');
const module = join(dist, 'operator', 'api', 'crd-yaml.js');
if (!existsSync(module)) {
  console.error(`${module} not found: build first (npm run build)`);
  process.exit(1);
}
const { crdYaml, CRD_FILE } = await import(pathToFileURL(module).href);
// The chart ships the same file under crds/ (a test fails when the two differ).
const outs = process.argv[3] !== undefined
  ? [resolve(root, process.argv[3])]
  : [resolve(root, CRD_FILE), resolve(root, 'charts/kvstore-operator/crds', CRD_FILE.split('/').pop())];
for (const out of outs) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, crdYaml());
  console.log(`wrote ${out}`);
}
