#!/usr/bin/env node
/**
 * kvstorectl's entry point: the only place that reads argv, the environment and signals.
 * It wires the process edges into a CtlIO, runs one command and sets the exit code.
 */
import { randomUUID } from 'node:crypto';
import { runCtl } from './cli/program.js';
import type { CtlIO } from './cli/io.js';

// kvstorectl prints etcdctl's text only: Node's deprecation notices (DEP0123 for a TLS
// connection to an IP address, which Go's client makes without SNI) are not shown.
process.noDeprecation = true;

const interrupt = new AbortController();
let claimed = false;

function onSignal(signal: NodeJS.Signals): void {
  if (claimed) {
    interrupt.abort();
    return;
  }
  // Nobody handles interrupts: end by the signal, as etcdctl does.
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// A closed pipe on stdout/stderr (`kvstorectl get … | head -1`) ends the process quietly with
// the status a shell reports for SIGPIPE, as the Go tool's death by that signal does.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(128 + 13);
    throw err;
  });
}

const io: CtlIO = {
  stdout: { write: (chunk) => void process.stdout.write(chunk) },
  stderr: { write: (chunk) => void process.stderr.write(chunk) },
  stderrIsTTY: process.stderr.isTTY === true,
  stdin: process.stdin,
  env: process.env,
  interrupt: interrupt.signal,
  claimInterrupt: () => {
    claimed = true;
  },
  now: () => Date.now(),
  monotonicNs: () => process.hrtime.bigint(),
  randomUUID: () => randomUUID(),
};

runCtl(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
