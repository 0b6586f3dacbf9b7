/**
 * CPU shares: how much of the machine a process (a member, a deployment, the generator) used
 * over a measurement window, and what that costs per request. Pure arithmetic.
 *
 * Example: a member at 0.50 cores on a 2-core machine serving 10 000 requests/s holds 25 % of the
 * machine and spends 50 µs of CPU per request.
 */

export interface CpuShare {
  /** CPU used, in cores (1.0 = one core busy the whole window). */
  readonly cores: number;
  /** cores / machine cores, in percent. */
  readonly percentOfMachine: number;
  /** CPU µs per completed request (or delivered event); NaN when nothing completed. */
  readonly microsPerOp: number;
}

export function cpuShare(cores: number, opsPerSecond: number, machineCores: number): CpuShare {
  return {
    cores,
    percentOfMachine: machineCores > 0 ? (cores / machineCores) * 100 : NaN,
    microsPerOp: opsPerSecond > 0 ? (cores * 1e6) / opsPerSecond : NaN,
  };
}

/** What the rest of the machine used: busy − the listed processes, never below 0 (clock-tick rounding). */
export function otherCores(machineBusyCores: number, ...known: readonly number[]): number {
  return Math.max(0, machineBusyCores - known.reduce((a, b) => a + b, 0));
}

/** `0.52 (26 %)`, or `–` when unknown. */
export function formatShare(s: CpuShare): string {
  return Number.isFinite(s.cores) ? `${s.cores.toFixed(2)} (${Math.round(s.percentOfMachine)} %)` : '–';
}

/** Whole µs per op, or `–`. */
export function formatMicrosPerOp(s: CpuShare): string {
  return Number.isFinite(s.microsPerOp) ? Math.round(s.microsPerOp).toLocaleString('en-US') : '–';
}
