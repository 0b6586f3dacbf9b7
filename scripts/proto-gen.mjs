// Regenerates proto/gen from proto/**/*.proto (ts-proto through buf's bundled compiler).
// Usage: node scripts/proto-gen.mjs [outDir]   (default: proto/gen)
import { execFileSync } from 'node:child_process';
import { rmSync, mkdtempSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'proto', 'gen'));
const work = mkdtempSync(join(tmpdir(), 'kvstore-proto-'));
execFileSync(join(root, 'node_modules', '.bin', 'buf'), ['generate', '--output', work], {
  cwd: join(root, 'proto'),
  stdio: 'inherit',
});
rmSync(out, { recursive: true, force: true });
cpSync(join(work, 'gen'), out, { recursive: true });
rmSync(work, { recursive: true, force: true });
