// Runs etcd 3.4's own e2e suite (Debian's golang-etcd-server-dev) against kvstore or etcd, one test per
// process, and gates kvstore's results on etcd's recorded ones. Builds the TypeScript first when stale,
// then hands over to the compiled runner (test/etcd-e2e/cli.ts). Usage: node test/etcd-e2e/run.mjs --help
import { execFileSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
execFileSync(process.execPath, [join(root, 'scripts', 'ensure-ready.mjs')], { cwd: root, stdio: 'inherit' });
const { main } = await import(pathToFileURL(join(root, 'dist', 'test', 'etcd-e2e', 'cli.js')).href);
process.exitCode = await main(process.argv.slice(2));
