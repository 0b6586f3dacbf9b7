/**
 * Exit codes of etcdctl 3.4, which kvstorectl keeps.
 */
export const ExitCode = {
  Success: 0,
  Error: 1,
  BadConnection: 2,
  InvalidInput: 3,
  BadFeature: 4,
  Interrupted: 5,
  IO: 6,
  BadArgs: 128,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
