/**
 * What a stop signal means to `kvstore-operator local`: the first one stops the members; one
 * more, once `repeatMs` have passed, means "leave now". Signals within `repeatMs` of the first
 * are the same request delivered more than once — a process-group kill reaches the operator
 * itself and, through `npm start`'s wrapper, again (npm forwards it, and so does the wrapper) —
 * and must not abandon the members. Pure: the caller passes the time.
 *
 * Example (repeatMs 1000): signals at 0, 5 and 40 ms → stop, repeat, repeat; then at 3 000 ms → force.
 */
export type StopSignalMeaning = 'stop' | 'repeat' | 'force';

export function stopSignals(repeatMs: number): (now: number) => StopSignalMeaning {
  let first: number | undefined;
  return (now) => {
    if (first === undefined) {
      first = now;
      return 'stop';
    }
    return now - first < repeatMs ? 'repeat' : 'force';
  };
}
