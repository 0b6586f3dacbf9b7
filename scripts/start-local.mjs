// `npm start`: runs the shipped example cluster in local mode. Copies deploy/local/cluster.yaml to
// .kvstore-local/cluster.yaml the first time (later runs keep your edits and the cluster's data),
// then runs `kvstore-operator local -f .kvstore-local/cluster.yaml` until Ctrl-C, which stops the
// members. Edit spec.version in that file (3.4.0 → 3.5.0) to watch a rolling upgrade.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(process.cwd(), '.kvstore-local');
const file = join(dir, 'cluster.yaml');
if (!existsSync(file)) {
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(root, 'deploy', 'local', 'cluster.yaml'), file);
  console.error(`[start] copied the example cluster to ${file}`);
}
console.error(`[start] running 3 local members from ${file}; status is written into that file.`);
console.error('[start] try: change spec.version to 3.5.0 in it and save; Ctrl-C stops everything.');
const child = spawn(process.execPath, [join(root, 'dist', 'operator', 'main.js'), 'local', '-f', file, ...process.argv.slice(2)], { stdio: 'inherit' });
// Ctrl-C reaches the operator too (same process group); it stops the members, then exits.
const forward = (signal) => child.kill(signal);
process.on('SIGINT', () => undefined);
process.on('SIGTERM', forward);
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
