/**
 * The one exception type the WAL throws or rejects with. Its `problem` is the typed value
 * (types.ts `WalProblem`) callers switch on; the message is for humans and logs.
 */
import type { WalProblem } from './types.js';

export class WalError extends Error {
  readonly problem: WalProblem;

  constructor(problem: WalProblem, options?: { cause?: unknown }) {
    super(describeProblem(problem), options);
    this.name = 'WalError';
    this.problem = problem;
  }
}

export function describeProblem(problem: WalProblem): string {
  switch (problem.kind) {
    case 'Corrupt':
      return `wal: corrupt segment ${problem.segment} at offset ${problem.offset}: ${problem.reason}`;
    case 'InvalidAppend':
      return `wal: invalid append: ${problem.reason}`;
    case 'Closed':
      return 'wal: closed';
    case 'WriteFailed':
      return `wal: write failed, no further writes accepted: ${problem.reason}`;
  }
}
