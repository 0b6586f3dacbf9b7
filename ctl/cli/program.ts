/**
 * The command tree (commander) built from the command specs, and one run of kvstorectl:
 * argv → exit code. Usage errors print etcdctl-style `Error: …` lines and exit 1.
 *
 * `--flag=true|false` for boolean flags (accepted by etcdctl) is rewritten before parsing.
 */
import { Command, CommanderError, type Option } from 'commander';
import { COMMANDS } from '../commands/index.js';
import type { CommandSpec } from './command-spec.js';
import { makeContext, tlsSetupError } from './context.js';
import { ExitCode } from './exit-codes.js';
import { addGlobalFlags, resolveGlobal } from './global-options.js';
import type { CtlIO } from './io.js';
import { LineReader } from './stdin.js';

const GROUPS: Readonly<Record<string, string>> = {
  endpoint: 'Endpoint related commands',
  member: 'Membership related commands',
  lease: 'Lease related commands',
  snapshot: 'Manages etcd node snapshots',
  alarm: 'Alarm related commands',
  check: 'commands for checking properties of the etcd cluster',
};

function groupOf(program: Command, name: string): Command {
  const found = program.commands.find((c) => c.name() === name);
  if (found !== undefined) return found;
  const g = program.command(name).description(GROUPS[name] ?? name);
  g.exitOverride();
  return g;
}

function booleanFlags(cmd: Command, into: Set<string>): Set<string> {
  for (const o of cmd.options as readonly Option[]) {
    if (!o.required && !o.optional && o.long !== undefined) into.add(o.long);
  }
  for (const c of cmd.commands) booleanFlags(c, into);
  return into;
}

function normalizeArgv(argv: readonly string[], bools: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const m = /^(--[a-z][a-z0-9-]*)=(true|false)$/.exec(a);
    if (m !== null && bools.has(m[1])) {
      if (m[2] === 'true') out.push(m[1]);
      else if (bools.has(`--no-${m[1].slice(2)}`) || m[1] === '--insecure-transport' || m[1] === '--insecure-discovery') out.push(`--no-${m[1].slice(2)}`);
    } else out.push(a);
  }
  return out;
}

function commanderMessage(e: CommanderError): string {
  const msg = e.message.replace(/^error: /, '');
  const unknownOption = /^unknown option '([^']+)'/.exec(msg);
  if (unknownOption !== null) return `unknown flag: ${unknownOption[1]}`;
  const unknownCommand = /^unknown command '([^']+)'/.exec(msg);
  if (unknownCommand !== null) return `unknown command "${unknownCommand[1]}" for "kvstorectl"`;
  const missing = /^option '(?:-\w, )?(--[\w-]+)[^']*' argument missing/.exec(msg);
  if (missing !== null) return `flag needs an argument: ${missing[1]}`;
  return msg;
}

/** Runs one kvstorectl invocation; never exits the process. */
/** Commands that make no client: a bad TLS flag does not stop them (as in etcdctl). */
const CLIENTLESS: ReadonlySet<string> = new Set(['version', 'snapshot status', 'snapshot restore']);

export async function runCtl(argv: readonly string[], io: CtlIO): Promise<number> {
  let exit: number = ExitCode.Success;
  const program = new Command('kvstorectl');
  program.description('A simple command line client for kvstore (etcd v3 API).').exitOverride();
  program.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: () => undefined });
  addGlobalFlags(program);
  for (const spec of COMMANDS) register(program, spec, io, argv, (code) => (exit = code));
  try {
    await program.parseAsync(normalizeArgv(argv, booleanFlags(program, new Set(['--no-insecure-transport', '--no-insecure-discovery']))), { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') return ExitCode.Success;
    io.stderr.write(`Error: ${commanderMessage(e)}\n`);
    return ExitCode.Error;
  }
  return exit;
}

function register(program: Command, spec: CommandSpec, io: CtlIO, argv: readonly string[], setExit: (code: number) => void): void {
  const parent = spec.path.slice(0, -1).reduce((p, name) => groupOf(p, name), program);
  const leaf = parent.command(spec.path[spec.path.length - 1]).description(spec.summary).usage(spec.usage);
  leaf.argument('[args...]').allowExcessArguments(true).exitOverride();
  spec.options?.(leaf);
  leaf.action(async (args: string[], _opts: unknown, cmd: Command) => {
    const resolved = resolveGlobal(cmd.optsWithGlobals(), io.env);
    if ('message' in resolved) {
      io.stderr.write(`Error: ${resolved.message}\n`);
      setExit(resolved.message === 'unsupported output format' ? ExitCode.BadFeature : ExitCode.Error);
      return;
    }
    let global = resolved;
    if (global.user !== undefined && global.password === undefined) {
      // etcdctl asks for the password of --user when none is given.
      io.stdout.write('Password: ');
      const line = (await new LineReader(io.stdin).next()) ?? '';
      io.stdout.write('\n');
      global = { ...global, password: line.replace(/\r?\n$/, '') };
    }
    const tlsError = CLIENTLESS.has(spec.path.join(' ')) ? undefined : tlsSetupError(global);
    if (tlsError !== undefined) {
      io.stderr.write(`Error: ${tlsError}\n`);
      setExit(ExitCode.BadArgs);
      return;
    }
    const flags = cmd.opts();
    const owned = makeContext(io, argv, global, spec.printerFlags?.(flags) ?? {});
    try {
      setExit(await spec.run(owned.ctx, args, flags));
    } finally {
      owned.close();
    }
  });
}
