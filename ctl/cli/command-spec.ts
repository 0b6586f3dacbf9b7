/**
 * The shape of one kvstorectl command (one file per command under ctl/commands/).
 *
 * `path` places it in the tree (`['endpoint', 'health']`); `options` adds its own flags to
 * the commander command; `run` gets the context, the positional arguments and the parsed
 * flags (camelCased names), and returns the exit code. A command never exits the process.
 */
import type { Command } from 'commander';
import type { CommandContext, PrinterFlags } from './context.js';

export type Flags = Readonly<Record<string, unknown>>;

export interface CommandSpec {
  readonly path: readonly string[];
  /** Usage text of the positional arguments, e.g. `<key> [range_end]`. */
  readonly usage: string;
  readonly summary: string;
  readonly options?: (cmd: Command) => void;
  /** Printer options taken from the command's flags. */
  readonly printerFlags?: (flags: Flags) => PrinterFlags;
  readonly run: (ctx: CommandContext, args: readonly string[], flags: Flags) => Promise<number>;
}

/** A flag value as a string (commander leaves values as strings unless parsed). */
export function flagString(flags: Flags, name: string, def = ''): string {
  const v = flags[name];
  return v === undefined || v === null ? def : String(v);
}

export function flagBool(flags: Flags, name: string): boolean {
  return flags[name] === true;
}

/** pflag's int64 parsing, with its error text; decimal unless `base` is 16. */
export function parseInt64(text: string, flagName: string, base: 10 | 16 = 10): bigint | { readonly message: string } {
  const ok = base === 16 ? /^[+-]?[0-9a-fA-F]+$/.test(text) : /^[+-]?\d+$/.test(text);
  if (!ok) return { message: `invalid argument "${text}" for "--${flagName}" flag: strconv.ParseInt: parsing "${text}": invalid syntax` };
  const neg = text.startsWith('-');
  const digits = text.replace(/^[+-]/, '');
  const v = BigInt(base === 16 ? `0x${digits}` : digits) * (neg ? -1n : 1n);
  if (v > 9223372036854775807n || v < -9223372036854775808n) return { message: `invalid argument "${text}" for "--${flagName}" flag: strconv.ParseInt: parsing "${text}": value out of range` };
  return v;
}
