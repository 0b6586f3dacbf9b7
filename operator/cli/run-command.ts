/**
 * `kvstore-operator run`: the operator on Kubernetes (operator/runtime/kube-controller). Runs
 * until SIGINT / SIGTERM, then stops reconciling (releasing the leader Lease), and exits 0;
 * exits 2 when it cannot start (no API access, the CRD not installed, the metrics port taken).
 * Without `--kubeconfig` (or KUBECONFIG) it uses the in-cluster service account.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Command, Option } from 'commander';
import pino from 'pino';
import { parseBindAddress, parseDuration } from './cli-values.js';
import { reconcile } from '../controller/reconcile.js';
import { startKubeOperator } from '../runtime/kube-controller/operator.js';
import { addressMapResolver } from '../runtime/kube-platform/address-map.js';
import type { UrlResolver } from '../runtime/kube-platform/member-url.js';

/** What the command needs from the process (main.ts is the only reader of env and signals). */
export interface RunCommandIO {
  onStopSignal(handler: () => void): void;
  exit(code: number): void;
  /** KUBECONFIG, KUBERNETES_SERVICE_HOST, POD_NAME, POD_NAMESPACE. */
  env(name: string): string | undefined;
}

export const LEASE_NAME = 'kvstore-operator';

/** --restore-base-url, else the metrics Service of deploy/ in the operator's namespace. */
function restoreBase(flag: string | undefined, namespace: string | undefined, port: number | undefined): { restoreBaseURL?: string } {
  if (flag !== undefined && flag !== '') return { restoreBaseURL: flag };
  return namespace === undefined || port === undefined ? {} : { restoreBaseURL: `http://kvstore-operator-metrics.${namespace}.svc:${port}` };
}
export const DEFAULT_SNAPSHOT_DIR = '/var/lib/kvstore-operator/snapshots';


/**
 * One map for both directions: client entries (`…:2379`) are what this process dials; peer
 * entries (`…:2380`), when given, are the peer URLs the members advertise (a test whose pods
 * run as local processes), used to match and register members. Without peer entries peer URLs
 * stay the DNS names, as a port-forward setup needs.
 */
function mapped(file: string): { resolveUrl: UrlResolver; resolvePeerUrl: UrlResolver } {
  // Client URLs are dialled here: over TLS they verify the advertised name. Peer URLs are data.
  return { resolveUrl: addressMapResolver(file, { tlsServerName: true }), resolvePeerUrl: addressMapResolver(file) };
}

interface RunOptions {
  kubeconfig?: string;
  namespace: string;
  leaderElect: boolean;
  leaderElectionNamespace?: string;
  leaderElectLeaseDuration: string;
  leaderElectRenewDeadline: string;
  leaderElectRetryPeriod: string;
  metricsBindAddress: string;
  snapshotDir: string;
  backupDir?: string;
  logLevel: string;
  memberAddressMap?: string;
  restoreBaseUrl?: string;
}

export function runCommand(io: RunCommandIO): Command {
  return new Command('run')
    .description('reconcile KvstoreCluster resources on Kubernetes (in-cluster config unless --kubeconfig)')
    .option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, else the in-cluster service account)')
    .option('--namespace <ns>', 'namespace to watch, or "all"', 'all')
    .option('--leader-elect', 'elect a leader through the Lease kvstore-operator; only the leader reconciles', false)
    .option('--leader-election-namespace <ns>', 'namespace of the Lease (default: $POD_NAMESPACE, else default)')
    .option('--leader-elect-lease-duration <d>', 'Lease duration (15s, 1500ms, 1m)', '15s')
    .option('--leader-elect-renew-deadline <d>', 'a leader that cannot renew for this long steps down', '10s')
    .option('--leader-elect-retry-period <d>', 'time between election attempts', '2s')
    .option('--metrics-bind-address <[host]:port>', '/healthz, /readyz and /metrics listener ("0": none)', ':8080')
    .option('--snapshot-dir <dir>', 'where pre-upgrade snapshots are written (the operator\'s snapshot volume)', DEFAULT_SNAPSHOT_DIR)
    .option('--backup-dir <dir>', 'where scheduled backups with a directory destination go (default: <snapshot-dir>/backups)')
    .option('--restore-base-url <url>', 'the metrics listener as member pods reach it (its Service URL); spec.restoreFrom init containers and upgrade rehearsal pods fetch snapshots there (default: http://kvstore-operator-metrics.$POD_NAMESPACE.svc:<metrics port> when POD_NAMESPACE is set)')
    .option('--member-address-map <file>', 'JSON {"<advertised host:port>": "<host:port>"} for an operator outside the cluster network (port-forwards); re-read when it changes')
    .addOption(new Option('--log-level <level>', 'operator log level').choices(['debug', 'info', 'warn', 'error']).default('info'))
    .action(async (opts: RunOptions) => {
      const logger = pino({ level: opts.logLevel, base: { name: 'kvstore-operator' } }, pino.destination(2));
      const fail = (error: string): void => {
        logger.error({ error }, 'cannot start');
        logger.flush();
        process.stderr.write(`kvstore-operator: ${error}\n`);
        io.exit(2);
      };
      let durations: { lease: number; renew: number; retry: number };
      let metricsBind: { host: string; port: number } | undefined;
      try {
        durations = { lease: parseDuration(opts.leaderElectLeaseDuration), renew: parseDuration(opts.leaderElectRenewDeadline), retry: parseDuration(opts.leaderElectRetryPeriod) };
        metricsBind = parseBindAddress(opts.metricsBindAddress);
      } catch (err) {
        fail((err as Error).message);
        return;
      }
      const kubeConfig = new KubeConfig();
      const file = opts.kubeconfig ?? io.env('KUBECONFIG');
      try {
        if (file !== undefined && file !== '') kubeConfig.loadFromFile(resolve(file));
        else if (io.env('KUBERNETES_SERVICE_HOST') === undefined) throw new Error('not running in a cluster (no KUBERNETES_SERVICE_HOST): give --kubeconfig');
        else kubeConfig.loadFromCluster();
      } catch (err) {
        fail(`kubeconfig: ${(err as Error).message}`);
        return;
      }
      const instance = io.env('POD_NAME') ?? hostname();
      const identity = `${instance}_${randomBytes(4).toString('hex')}`;
      const started = await startKubeOperator({
        kubeConfig,
        namespace: opts.namespace === 'all' ? undefined : opts.namespace,
        snapshotDir: resolve(opts.snapshotDir),
        ...(opts.backupDir === undefined ? {} : { backupDir: resolve(opts.backupDir) }),
        ...(opts.memberAddressMap === undefined ? {} : mapped(resolve(opts.memberAddressMap))),
        reconcile,
        logger,
        instance,
        ...(metricsBind === undefined ? {} : { metricsBind }),
        ...restoreBase(opts.restoreBaseUrl, io.env('POD_NAMESPACE'), metricsBind?.port),
        ...(opts.leaderElect
          ? {
              leaderElection: {
                namespace: opts.leaderElectionNamespace ?? io.env('POD_NAMESPACE') ?? 'default',
                name: LEASE_NAME,
                identity,
                leaseDurationMs: durations.lease,
                renewDeadlineMs: durations.renew,
                retryPeriodMs: durations.retry,
              },
            }
          : {}),
      });
      if (!started.ok) {
        fail(started.error);
        return;
      }
      logger.info({ identity, namespace: opts.namespace, health: started.value.healthURL, leaderElect: opts.leaderElect }, 'operator started');
      let stopping = false;
      io.onStopSignal(() => {
        if (stopping) return;
        stopping = true;
        void started.value.stop().then(() => {
          logger.info({}, 'stopped');
          logger.flush();
          io.exit(0);
        });
      });
    });
}
