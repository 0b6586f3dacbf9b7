/**
 * The member image's configuration, run without Docker: the compiled `kvstore` started with the
 * environment the member Dockerfile's final stage sets (KVSTORE_SERVER_VERSION from the build
 * argument, KVSTORE_DATA_DIR) and only the cluster flags a pod passes. It must serve the version
 * built in and keep its data in KVSTORE_DATA_DIR. From 3.4 a `--data-dir` flag next to the image's
 * KVSTORE_DATA_DIR is refused (as etcd refuses a shadowed ETCD_* variable): whoever starts the
 * image (the operator's StatefulSet) must configure the data directory through the variable.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { initialClusterOf, KVSTORE_MAIN, makeTempDir, reserveAddress } from '../support/processes.js';
import { versionOf } from '../support/member-http.js';
import { ServerProcess } from '../support/server-process.js';
import { instructions, keyValues, parseDockerfile, substitute } from './support/dockerfile.js';
import { readRepoFile } from './support/repo.js';

/** The final stage's ENV as the image would have it, built with `--build-arg KVSTORE_SERVER_VERSION=<version>`. */
function imageEnv(version: string): Record<string, string> {
  const df = parseDockerfile(readRepoFile('deploy/docker/member.Dockerfile'));
  const final = df.stages[df.stages.length - 1];
  assert.ok(final !== undefined);
  const vars = new Map<string, string | undefined>([['KVSTORE_SERVER_VERSION', version]]);
  const env: Record<string, string> = {};
  for (const e of instructions(final, 'ENV')) for (const [k, v] of keyValues(e.args)) env[k] = substitute(v ?? '', vars);
  return env;
}

async function startFromImageEnv(version: string, dataDir: string, extraArgs: readonly string[], waitReady: boolean): Promise<ServerProcess> {
  const address = await reserveAddress('m1');
  const env = { ...imageEnv(version), KVSTORE_DATA_DIR: dataDir };
  const member = new ServerProcess({
    kind: 'kvstore',
    address,
    dataDir,
    command: process.execPath,
    args: [
      KVSTORE_MAIN,
      `--name=${address.name}`,
      `--listen-client-urls=${address.clientUrl}`,
      `--advertise-client-urls=${address.clientUrl}`,
      `--listen-peer-urls=${address.peerUrl}`,
      `--initial-advertise-peer-urls=${address.peerUrl}`,
      `--initial-cluster=${initialClusterOf([address])}`,
      ...extraArgs,
    ],
    env,
    readyTimeoutMs: 30_000,
    waitReady,
  });
  await member.start();
  return member;
}

void test('the image environment: the member presents the built-in version and keeps its data in KVSTORE_DATA_DIR', async () => {
  const env = imageEnv('3.4.0');
  assert.equal(env.KVSTORE_SERVER_VERSION, '3.4.0');
  assert.equal(env.KVSTORE_DATA_DIR, '/var/lib/kvstore');
  const dataDir = join(makeTempDir('image-env'), 'data');
  const member = await startFromImageEnv('3.4.0', dataDir, [], true);
  assert.equal((await versionOf(member)).etcdserver, '3.4.0');
  assert.ok(existsSync(dataDir) && readdirSync(dataDir).length > 0, 'data written to KVSTORE_DATA_DIR');
  assert.equal(await member.stop(), 0);
});

void test('from 3.4, --data-dir next to the image KVSTORE_DATA_DIR is refused (configure the image by its variables)', async () => {
  const dir = makeTempDir('image-env-shadow');
  const member = await startFromImageEnv('3.4.0', join(dir, 'env'), [`--data-dir=${join(dir, 'flag')}`], false);
  const code = await member.exited();
  assert.notEqual(code, 0, 'the member must not start');
  assert.match(member.logs(), /KVSTORE_DATA_DIR/);
});
