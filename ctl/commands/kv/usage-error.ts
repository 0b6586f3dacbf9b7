/**
 * An argument problem found before any request: etcdctl's message and exit code.
 */
import { ExitCode } from '../../cli/exit-codes.js';

export interface UsageError {
  readonly usageError: string;
  readonly code: ExitCode;
}

export const usageError = (message: string, code: ExitCode = ExitCode.BadArgs): UsageError => ({ usageError: message, code });

export function isUsageError(v: unknown): v is UsageError {
  return typeof v === 'object' && v !== null && 'usageError' in v;
}
