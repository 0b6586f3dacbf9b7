/**
 * Arguments of `watch`: key and optional range end, an optional command after `--` (run for
 * every event), and KVSTORECTL_WATCH_KEY / KVSTORECTL_WATCH_RANGE_END standing for the key and
 * range end. Errors carry etcdctl's texts (exit 128).
 */
import type { Command } from 'commander';

export function addWatchFlags(cmd: Command): void {
  cmd
    .option('-i, --interactive', 'Interactive mode')
    .option('--prefix', 'Watch on a prefix if prefix is set')
    .option('--rev <rev>', 'Revision to start watching', '0')
    .option('--prev-kv', 'get the previous key-value pair before the event happens');
}

export interface WatchTarget {
  readonly key: string;
  readonly rangeEnd?: string;
}

export const BAD_ARGS_NUM = 'bad number of arguments';

/**
 * Splits the command's positional arguments into watch arguments and the exec command, using
 * the raw argv to find `--` (commander drops it).
 */
export function splitWatchArgs(
  argv: readonly string[],
  commandArgs: readonly string[],
  envKey: string,
  envRange: string,
): { watchArgs: string[]; execArgs: string[] } | { error: string } {
  const at = argv.indexOf('watch');
  const raw = at < 0 ? [...argv] : argv.slice(at + 1);
  const sep = raw.indexOf('--');
  if (sep >= 0 && sep === raw.length - 1) return { error: 'bad number of arguments (found separator --, but no commands)' };
  if (sep < 0 && raw.length < 1 && envKey === '') return { error: BAD_ARGS_NUM };
  if (sep < 0 && commandArgs.length > 0 && envKey !== '') return { error: 'bad number of arguments (found conflicting environment key)' };
  const execArgs = sep < 0 ? [] : raw.slice(sep + 1);
  let watchArgs = [...commandArgs];
  if (execArgs.length > 0) {
    const cut = watchArgs.lastIndexOf(execArgs[0]);
    watchArgs = watchArgs.slice(0, Math.max(0, cut));
  }
  if (envKey !== '') watchArgs = [envKey, ...(envRange === '' ? [] : [envRange]), ...watchArgs];
  return { watchArgs, execArgs };
}

/** The key and range end of `watchArgs`, or etcdctl's error. */
export function watchTarget(watchArgs: readonly string[], prefix: boolean): WatchTarget | { error: string } {
  if (watchArgs.length < 1) return { error: BAD_ARGS_NUM };
  if (watchArgs.length === 2) {
    if (prefix) return { error: '`range_end` and `--prefix` are mutually exclusive' };
    return { key: watchArgs[0], rangeEnd: watchArgs[1] };
  }
  return { key: watchArgs[0] };
}
