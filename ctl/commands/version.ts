/**
 * `version`: the tool's version and the API version it speaks (no server call).
 */
import type { CommandSpec } from '../cli/command-spec.js';
import { ExitCode } from '../cli/exit-codes.js';

/** The etcd release whose etcdctl behaviour kvstorectl reproduces. */
export const CTL_VERSION = '3.4.23';
export const API_VERSION = '3.4';

export const versionCommand: CommandSpec = {
  path: ['version'],
  usage: '',
  summary: 'Prints the version of kvstorectl',
  run: (ctx) => {
    ctx.io.stdout.write(`kvstorectl version: ${CTL_VERSION}\nAPI version: ${API_VERSION}\n`);
    return Promise.resolve(ExitCode.Success);
  },
};
