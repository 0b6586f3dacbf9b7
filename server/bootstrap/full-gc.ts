/**
 * A memory-reducing full collection of the calling thread's heap (V8's low-memory
 * notification, through an in-process inspector session: it gives the freed pages back, which
 * a plain `gc()` does not), compacting every fragmented old-space page for that one collection
 * (V8 otherwise evacuates only some, and a heap left fragmented by a burst keeps its pages).
 * idle-gc.ts calls it when the thread is idle: main.ts for the main thread, the front-end
 * thread for its own heap (frontend/front-end-thread.ts).
 */
import { Session } from 'node:inspector';
import { setFlagsFromString } from 'node:v8';

export function fullGc(): (done: () => void) => void {
  const session = new Session();
  session.connect();
  return (done) => {
    setFlagsFromString('--compact-on-every-full-gc');
    session.post('HeapProfiler.collectGarbage', () => {
      setFlagsFromString('--no-compact-on-every-full-gc');
      done();
    });
  };
}
