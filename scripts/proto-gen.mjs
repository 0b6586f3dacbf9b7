// Regenerates proto/gen from proto/**/*.proto with protoc (Debian: protobuf-compiler) and the
// ts-proto plugin. Usage: node scripts/proto-gen.mjs [outDir]   (default: proto/gen)
import { execFileSync } from 'node:child_process';
import { rmSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const protoDir = join(root, 'proto');
const out = resolve(process.argv[2] ?? join(protoDir, 'gen'));

// Options of the generated code (keep in sync with what proto/gen holds).
const OPTIONS = [
  'esModuleInterop=true',
  'importSuffix=.js',
  'forceLong=bigint',
  'outputServices=grpc-js',
  'env=node',
  'oneof=unions-value',
  'snakeToCamel=keys_json',
  'useExactTypes=false',
  'outputPartialMethods=false',
  'outputJsonMethods=true',
];

const sources = readdirSync(protoDir, { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && e.name.endsWith('.proto'))
  .map((e) => relative(protoDir, join(e.parentPath ?? e.path, e.name)))
  .filter((p) => !p.startsWith('gen'))
  .sort();

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
try {
  execFileSync(
    'protoc',
    [
      `--plugin=protoc-gen-ts_proto=${join(root, 'node_modules', '.bin', 'protoc-gen-ts_proto')}`,
      `--ts_proto_out=${out}`,
      `--ts_proto_opt=${OPTIONS.join(',')}`,
      `-I${protoDir}`,
      ...sources,
    ],
    { cwd: protoDir, stdio: 'inherit' },
  );
} catch (e) {
  if (e.code === 'ENOENT') {
    console.error('protoc not found: install it (Debian: apt-get install -y protobuf-compiler)');
    process.exit(1);
  }
  throw e;
}
