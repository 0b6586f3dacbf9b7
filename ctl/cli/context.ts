/**
 * What a command runs with: the process edges, the resolved global flags, the output writer,
 * and clients built from the global flags (each closed when the command ends).
 *
 * Errors are values here too: `fail(code, message)` writes etcdctl's `Error: <message>` line to
 * stderr and returns the exit code for the command to return.
 */
import { readFileSync } from 'node:fs';
import { createClient, type Client, type TlsOptions } from '../client/index.js';
import { makePrinter, type Printer, type PrintOutcome } from '../printer/index.js';
import { ExitCode } from './exit-codes.js';
import type { GlobalConfig } from './global-options.js';
import type { CtlIO } from './io.js';
import { clientLogger } from './zap-log.js';

export interface CommandContext {
  readonly io: CtlIO;
  /** The raw arguments of this run (for commands that look at `--` themselves). */
  readonly argv: readonly string[];
  readonly global: GlobalConfig;
  readonly printer: Printer;
  /**
   * A client over `endpoints`, closed when the command ends; without `endpoints`, THE client
   * over --endpoints (the same one on every call).
   */
  client(endpoints?: readonly string[]): Client | ClientSetupError;
  /**
   * The client over --endpoints, ready for use as etcdctl's client is after creation: with
   * --user it has connected and authenticated (a failure prints `Error: …` and gives exit 2);
   * without, nothing is sent yet. Returns the exit code on failure.
   */
  mustClient(): Promise<Client | number>;
  /** Writes `Error: <message>` and returns `code`. */
  fail(code: ExitCode, message: string): ExitCode;
  /** 0 when printing succeeded, else the printing failure as `fail`. */
  printed(outcome: PrintOutcome): ExitCode;
}

/** The client could not be configured (e.g. unreadable TLS file). */
export interface ClientSetupError {
  readonly setupError: string;
}

export function isSetupError(c: Client | ClientSetupError): c is ClientSetupError {
  return 'setupError' in c;
}

/** Options of the printer that depend on the command (`--print-value-only`). */
export interface PrinterFlags {
  readonly valueOnly?: boolean;
}

/** A context plus the cleanup to run when the command ends. */
export interface OwnedContext {
  readonly ctx: CommandContext;
  close(): void;
}

function readTls(g: GlobalConfig): TlsOptions | ClientSetupError | undefined {
  if (g.cacert === undefined && g.cert === undefined && g.key === undefined && !g.insecureSkipTlsVerify) return undefined;
  try {
    return {
      ...(g.cacert === undefined ? {} : { ca: readFileSync(g.cacert) }),
      ...(g.cert === undefined ? {} : { cert: readFileSync(g.cert) }),
      ...(g.key === undefined ? {} : { key: readFileSync(g.key) }),
      insecureSkipVerify: g.insecureSkipTlsVerify,
    };
  } catch (err) {
    return { setupError: (err as Error).message };
  }
}

export function makeContext(io: CtlIO, argv: readonly string[], global: GlobalConfig, flags: PrinterFlags = {}): OwnedContext {
  const clients: Client[] = [];
  let main: Client | ClientSetupError | undefined;
  const printer = makePrinter(global.writeOut, { out: io.stdout, err: io.stderr, hex: global.hex, valueOnly: flags.valueOnly === true });
  const fail = (code: ExitCode, message: string): ExitCode => {
    io.stderr.write(`Error: ${message}\n`);
    return code;
  };
  const ctx: CommandContext = {
    io,
    argv,
    global,
    printer,
    client: (endpoints) => {
      if (endpoints === undefined) {
        main ??= newClient(global.endpoints);
        return main;
      }
      return newClient(endpoints);
    },
    mustClient: async () => {
      const c = ctx.client();
      if (isSetupError(c)) return fail(ExitCode.BadConnection, c.setupError);
      if (global.user !== undefined) {
        const r = await c.connect();
        if (!r.ok) return fail(ExitCode.BadConnection, r.error.message);
      }
      return c;
    },
    fail,
    printed: (outcome) => (outcome === undefined ? ExitCode.Success : fail(outcome.code, outcome.message)),
  };
  function newClient(endpoints: readonly string[]): Client | ClientSetupError {
    const tls = readTls(global);
    if (tls !== undefined && 'setupError' in tls) return tls;
    const c = createClient({
      endpoints,
      dialTimeoutMs: global.dialTimeoutMs,
      commandTimeoutMs: global.commandTimeoutMs,
      ...(global.user === undefined ? {} : { username: global.user, password: global.password ?? '' }),
      ...(tls === undefined ? {} : { tls }),
      logger: clientLogger(io.stderr, io.now, io.randomUUID(), endpoints),
    });
    clients.push(c);
    return c;
  }
  return {
    ctx,
    close: () => {
      for (const c of clients) c.close();
    },
  };
}
