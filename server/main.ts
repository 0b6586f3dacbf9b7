#!/usr/bin/env node
/**
 * `kvstore`: the member process. The only place that reads argv, the environment and
 * signals. Exit codes: 0 after a clean stop, 1 on a startup or storage failure, 2 on a
 * configuration error.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { loadConfig } from './config/index.js';
import { createLogger } from './log/logger.js';
import { formatVersionOutput } from './version/version.js';
import { fullGc } from './bootstrap/full-gc.js';
import { startIdleGc } from './bootstrap/idle-gc.js';
import { ConfigProblem, startMember } from './bootstrap/start-member.js';
import { parseProxyCommand } from './proxy/proxy-flags.js';
import { startGrpcProxy } from './proxy/grpc-proxy.js';
import { startTcpProxy } from './proxy/tcp-proxy.js';

/** `kvstore gateway start …` and `kvstore grpc-proxy start …`: a proxy in front of a cluster. */
async function proxyMain(argv: readonly string[]): Promise<void> {
  const plan = parseProxyCommand(argv, (p) => readFileSync(p), hostname());
  if (plan.kind === 'error') {
    process.stderr.write(`${plan.message}\n`);
    process.exitCode = 1;
    return;
  }
  if (plan.kind === 'help') {
    process.stdout.write(plan.text);
    return;
  }
  const logger = createLogger({ level: 'info', outputs: ['stderr'] });
  let proxy;
  try {
    proxy = plan.kind === 'gateway' ? await startTcpProxy({ ...plan, logger }) : await startGrpcProxy({ ...plan, logger });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
    return;
  }
  const stop = (): void => {
    proxy.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(): Promise<void> {
  const command = process.argv[2];
  if (command === 'gateway' || command === 'grpc-proxy') return proxyMain(process.argv.slice(2));
  const outcome = loadConfig(process.argv.slice(2), process.env, (p) => readFileSync(p, 'utf8'));
  switch (outcome.kind) {
    case 'error':
      process.stderr.write(`kvstore: ${outcome.message}\n`);
      process.exitCode = 2;
      return;
    case 'help':
      process.stdout.write(outcome.text);
      return;
    case 'version':
      process.stdout.write(formatVersionOutput(outcome.serverVersion, { nodeVersion: process.version, platform: process.platform, arch: process.arch }));
      return;
    case 'run':
      break;
  }
  const { config } = outcome;
  const logger = createLogger({ level: config.logLevel, outputs: config.logOutputs, name: config.name });
  for (const w of outcome.warnings) logger.warn(w);

  let stopIdleGc = (): void => undefined;
  try {
    stopIdleGc = startIdleGc(fullGc(), (ms, bytes) => logger.debug({ 'pause-ms': Math.round(ms), 'heap-bytes': bytes }, 'collected garbage while idle'));
  } catch (err) {
    logger.warn({ err }, 'no idle garbage collection (no in-process inspector)');
  }
  let member;
  try {
    member = await startMember(config, logger);
  } catch (e) {
    if (e instanceof ConfigProblem) {
      logger.error(e.message);
      process.stderr.write(`kvstore: ${e.message}\n`);
      process.exitCode = 2;
    } else {
      logger.fatal({ err: e }, 'failed to start member');
      process.exitCode = 1;
    }
    // What the start had opened (peer listeners, timers) would keep the process alive: end it
    // here, as etcd does after a fatal start error (the logger writes synchronously).
    stopIdleGc();
    process.exit();
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    stopIdleGc();
    logger.info({ signal }, 'received signal; shutting down');
    member.close().then(
      () => process.exit(process.exitCode ?? 0),
      (err: unknown) => {
        logger.error({ err }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
