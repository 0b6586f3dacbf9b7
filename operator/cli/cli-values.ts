/**
 * Parsers of command-line values shared by the operator's subcommands; a bad value throws
 * commander's InvalidArgumentError (commander then names the option).
 */
import { InvalidArgumentError } from 'commander';

/** `:8080`, `0.0.0.0:8080`, `127.0.0.1:0`; `0` turns the listener off (undefined). */
export function parseBindAddress(text: string): { host: string; port: number } | undefined {
  if (text === '0') return undefined;
  const colon = text.lastIndexOf(':');
  const host = colon <= 0 ? '0.0.0.0' : text.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const port = Number(colon < 0 ? text : text.slice(colon + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError(`not a [host]:port: ${text}`);
  return { host, port };
}

/** `15s`, `1500ms`, `2m`, `15` (seconds) → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (m === null) throw new InvalidArgumentError(`not a duration: ${text}`);
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
}
