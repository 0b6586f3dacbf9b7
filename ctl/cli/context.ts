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
import { goPathError } from '../../server/snapshot/restore/go-errors.js';
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

/**
 * etcdctl 3.4's TLS set-up: a TLS configuration exists when --cacert, --cert or --key is given,
 * or with --insecure-transport=false; --insecure-skip-tls-verify only applies to such a
 * configuration (an `https://` endpoint without one verifies against the system roots).
 * Files are read in Go's order (certificate, key, then CA) and failures are Go's texts.
 */
function readTls(g: GlobalConfig): TlsOptions | ClientSetupError | undefined {
  if (g.cacert === undefined && g.cert === undefined && g.key === undefined && g.insecureTransport) return undefined;
  if ((g.cert !== undefined || g.key !== undefined) && (g.cert === undefined || g.key === undefined)) {
    return { setupError: `KeyFile and CertFile must both be present[key: ${g.key ?? ''}, cert: ${g.cert ?? ''}]` };
  }
  const read = (path: string): Buffer | ClientSetupError => {
    try {
      return readFileSync(path);
    } catch (err) {
      return { setupError: goPathError('open', path, err) };
    }
  };
  const files: Record<string, Buffer> = {};
  for (const [name, path] of [['cert', g.cert], ['key', g.key], ['ca', g.cacert]] as const) {
    if (path === undefined) continue;
    const got = read(path);
    if ('setupError' in got) return got;
    files[name] = got;
  }
  return { ...files, insecureSkipVerify: g.insecureSkipTlsVerify };
}

/** The TLS set-up failure etcdctl reports before any command that makes a client (exit 128). */
export function tlsSetupError(g: GlobalConfig): string | undefined {
  const tls = readTls(g);
  return tls !== undefined && 'setupError' in tls ? tls.setupError : undefined;
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
