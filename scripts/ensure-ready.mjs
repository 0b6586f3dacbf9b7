// Makes a fresh clone runnable: installs dependencies when missing and builds when the
// TypeScript sources are newer than the last build. Used by `npm start`, `npm test`, `npm run bench`.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd) => execSync(cmd, { cwd: root, stdio: 'inherit' });

if (!existsSync(join(root, 'node_modules', '.bin', 'tsc'))) {
  console.error('[setup] installing dependencies (npm ci)…');
  run('npm ci --no-audit --no-fund');
}

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = join(dir, entry.name);
    if (entry.isDirectory()) t = Math.max(t, newest(p));
    else if (entry.name.endsWith('.ts') || entry.name === 'tsconfig.json') t = Math.max(t, statSync(p).mtimeMs);
  }
  return t;
}

const stamp = join(root, 'dist', '.tsbuildinfo');
const sources = Math.max(...['server', 'ctl', 'operator', 'proto', 'test', 'bench'].filter((d) => existsSync(join(root, d))).map((d) => newest(join(root, d))), statSync(join(root, 'tsconfig.json')).mtimeMs);
if (!existsSync(stamp) || statSync(stamp).mtimeMs < sources) {
  console.error('[setup] building (tsc)…');
  run('npx tsc -p tsconfig.json');
}
