/**
 * The three watcher groups and the only code that moves a watcher between them.
 *
 * - synced:   indexed by key (KeyIndex) so notify() touches only matching watchers;
 * - unsynced: a set the catch-up loop walks;
 * - victims:  a set waiting for their stream to drain.
 *
 * Every move keeps `watcher.state` and the owning stream's `notSynced` count in step, so
 * "are all watchers of this stream synced" is O(1).
 */
import { KeyIndex } from './key-index.js';
import { WatcherState, type Watcher } from './watcher.js';

export class WatcherGroups {
  private readonly synced = new KeyIndex<Watcher>();
  readonly unsynced = new Set<Watcher>();
  readonly victims = new Set<Watcher>();

  get syncedCount(): number {
    return this.synced.size;
  }

  /** Calls `out` for each synced watcher whose range contains `key` (latin1). */
  matchSynced(key: string, out: (w: Watcher) => void): void {
    this.synced.match(key, out);
  }

  /** Every synced watcher (a snapshot, safe to move them while iterating). */
  syncedWatchers(): Watcher[] {
    const all: Watcher[] = [];
    this.synced.forEach((w) => all.push(w));
    return all;
  }

  toSynced(w: Watcher): void {
    this.leave(w);
    this.synced.add(w);
    this.enter(w, WatcherState.Synced);
  }

  toUnsynced(w: Watcher): void {
    this.leave(w);
    this.unsynced.add(w);
    this.enter(w, WatcherState.Unsynced);
  }

  /** Moves an unsynced watcher to the back of the catch-up order. */
  requeue(w: Watcher): void {
    if (this.unsynced.delete(w)) this.unsynced.add(w);
  }

  toVictim(w: Watcher): void {
    this.leave(w);
    this.victims.add(w);
    this.enter(w, WatcherState.Victim);
  }

  /** Takes the watcher out of every group for good. */
  remove(w: Watcher): void {
    this.leave(w);
    w.state = WatcherState.Detached;
  }

  private enter(w: Watcher, state: WatcherState): void {
    w.state = state;
    if (state !== WatcherState.Synced) w.stream.notSynced++;
  }

  private leave(w: Watcher): void {
    switch (w.state) {
      case WatcherState.Synced:
        this.synced.delete(w);
        return;
      case WatcherState.Unsynced:
        this.unsynced.delete(w);
        break;
      case WatcherState.Victim:
        this.victims.delete(w);
        break;
      case WatcherState.Detached:
        return;
    }
    w.stream.notSynced--;
  }
}
