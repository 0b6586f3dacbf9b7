// Starts a 3-member kvstore cluster on loopback, the way etcd's Procfile does:
//   infra1 client 127.0.0.1:2379  peer 127.0.0.1:12380
//   infra2 client 127.0.0.1:22379 peer 127.0.0.1:22380
//   infra3 client 127.0.0.1:32379 peer 127.0.0.1:32380
// Data under ./local-cluster/<name>.kvstore. Output of each member is prefixed with its name.
// Ctrl-C stops all three (each leader hands over before it exits).
// Usage: npm run cluster [-- --fresh]   (--fresh deletes the data dirs first)
import { spawn } from 'node:child_process';
import { rmSync, mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataRoot = join(process.cwd(), 'local-cluster');
if (process.argv.includes('--fresh')) rmSync(dataRoot, { recursive: true, force: true });
mkdirSync(dataRoot, { recursive: true });

const members = [
  { name: 'infra1', client: 2379, peer: 12380 },
  { name: 'infra2', client: 22379, peer: 22380 },
  { name: 'infra3', client: 32379, peer: 32380 },
];
const initialCluster = members.map((m) => `${m.name}=http://127.0.0.1:${m.peer}`).join(',');

const children = members.map((m) => {
  const child = spawn(process.execPath, [
    join(root, 'dist', 'server', 'main.js'),
    `--name=${m.name}`,
    `--data-dir=${join(dataRoot, `${m.name}.kvstore`)}`,
    `--listen-client-urls=http://127.0.0.1:${m.client}`,
    `--advertise-client-urls=http://127.0.0.1:${m.client}`,
    `--listen-peer-urls=http://127.0.0.1:${m.peer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${m.peer}`,
    `--initial-cluster=${initialCluster}`,
    '--initial-cluster-token=local-cluster',
    '--initial-cluster-state=new',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${m.name.padEnd(7)}| ${line}\n`));
  }
  child.on('exit', (code, signal) => process.stdout.write(`${m.name.padEnd(7)}| exited (${signal ?? code})\n`));
  return child;
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.log(`3 members starting; try: ETCDCTL_API=3 etcdctl --endpoints=127.0.0.1:2379,127.0.0.1:22379,127.0.0.1:32379 endpoint status -w table`);
