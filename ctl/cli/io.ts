/**
 * The process edges a command may use, passed in by main.ts (tests pass fakes): output
 * streams, stdin, environment, clock, randomness and the interrupt signal.
 */
export interface Output {
  write(chunk: string | Uint8Array): void;
}

export interface CtlIO {
  readonly stdout: Output;
  readonly stderr: Output;
  /** Whether stderr is a terminal (progress bars are drawn only then). */
  readonly stderrIsTTY: boolean;
  /** Standard input, read lazily. */
  readonly stdin: AsyncIterable<Buffer | string>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Aborts on SIGINT/SIGTERM once a command has claimed interrupts; until then an interrupt
   * ends the process by the signal (as for any Go program without a handler).
   */
  readonly interrupt: AbortSignal;
  /** Declares that the running command handles interrupts itself (watch, lock, elect, …). */
  claimInterrupt(): void;
  /** Wall clock in ms since the epoch. */
  readonly now: () => number;
  /** Monotonic clock in ns. */
  readonly monotonicNs: () => bigint;
  readonly randomUUID: () => string;
}
