#!/usr/bin/env node
/**
 * `kvstore-operator`: the operator's command line. The only place that reads argv and
 * signals. Subcommands: `run` (on Kubernetes), `local -f <cluster.yaml>` (members as local processes).
 */
import { Command } from 'commander';
import { localCommand } from './cli/local-command.js';
import { runCommand } from './cli/run-command.js';

const program = new Command('kvstore-operator')
  .description('Operator for KvstoreCluster resources: health-gated rolling upgrades with a leader snapshot first')
  .version('0.1.0');

program.addCommand(
  localCommand({
    onStopSignal: (handler) => {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
    },
    exit: (code) => process.exit(code),
  }),
);

program.addCommand(
  runCommand({
    onStopSignal: (handler) => {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
    },
    exit: (code) => process.exit(code),
    env: (name) => process.env[name],
  }),
);

await program.parseAsync(process.argv);
