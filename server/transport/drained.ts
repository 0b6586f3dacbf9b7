/**
 * Waiting for a writable to take more: resolves on its next `drain` or `close`, whichever
 * comes first, and removes both listeners then (a stream that closes never drains).
 */
interface DrainEmitter {
  on(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

export function drainedOrClosed(emitter: DrainEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      emitter.off('drain', done);
      emitter.off('close', done);
      resolve();
    };
    emitter.on('drain', done);
    emitter.on('close', done);
  });
}
