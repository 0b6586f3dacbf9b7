/**
 * `kvstore-operator local -f <cluster.yaml>`: runs one KvstoreCluster from a manifest file with
 * members as local `kvstore` processes (operator/runtime/local). Runs until SIGINT / SIGTERM,
 * then stops the members and exits 0 (a second signal, a second or more after the first, exits
 * 130 at once, leaving the members running for the next start to adopt); exits 2 when the
 * manifest cannot be used at start.
 */
import { Command, Option } from 'commander';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reconcile } from '../controller/reconcile.js';
import { LocalRunner } from '../runtime/local/local-runner.js';
import { createOperatorLogger } from '../runtime/logger.js';
import { parseBindAddress } from './cli-values.js';
import { stopSignals } from './stop-signals.js';

/** Signals this soon after the first are the same stop request delivered again (stop-signals.ts). */
const REPEAT_MS = 1000;

/** What the command needs from the process (main.ts is the only reader of signals and env). */
export interface LocalCommandIO {
  onStopSignal(handler: () => void): void;
  exit(code: number): void;
}

const DEFAULT_MEMBER_MAIN = fileURLToPath(new URL('../../server/main.js', import.meta.url));

export function localCommand(io: LocalCommandIO): Command {
  return new Command('local')
    .description('run a KvstoreCluster manifest with members as local kvstore processes; status is written back into the file')
    .requiredOption('-f, --file <cluster.yaml>', 'KvstoreCluster manifest (apiVersion kvstore.io/v1alpha1)')
    .addOption(new Option('--log-level <level>', 'operator log level').choices(['debug', 'info', 'warn', 'error']).default('info'))
    .option('--member-main <path>', 'kvstore entry point the members run with this Node', DEFAULT_MEMBER_MAIN)
    .option('--metrics-bind-address <[host]:port>', '/healthz, /readyz and /metrics listener ("0": none)', '0')
    .action(async (opts: { file: string; logLevel: string; memberMain: string; metricsBindAddress: string }) => {
      const logger = createOperatorLogger({ level: opts.logLevel });
      let metricsBind: { host: string; port: number } | undefined;
      try {
        metricsBind = parseBindAddress(opts.metricsBindAddress);
      } catch (err) {
        process.stderr.write(`kvstore-operator: --metrics-bind-address: ${(err as Error).message}\n`);
        io.exit(2);
        return;
      }
      const started = await LocalRunner.start({
        manifestFile: resolve(opts.file),
        kvstoreMain: resolve(opts.memberMain),
        reconcile,
        logger,
        random: Math.random,
        now: Date.now,
        ...(metricsBind === undefined ? {} : { metricsBind }),
      });
      if (!started.ok) {
        logger.error({ error: started.error }, 'cannot start');
        process.stderr.write(`kvstore-operator: ${started.error}\n`);
        io.exit(2);
        return;
      }
      const meaning = stopSignals(REPEAT_MS);
      io.onStopSignal(() => {
        const m = meaning(Date.now());
        if (m === 'repeat') return;
        if (m === 'force') {
          // A second signal: leave now; the members keep running and the next start adopts them.
          logger.warn({}, 'second stop signal: exiting without waiting for the members');
          logger.flush();
          io.exit(130);
          return;
        }
        void started.value.stop().then(() => {
          logger.info({ metrics: started.value.metrics.counting.counts }, 'stopped');
          logger.flush();
          io.exit(0);
        });
      });
    });
}
