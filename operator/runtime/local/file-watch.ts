/**
 * Tells when a file may have changed: fs.watch on its directory (a rename-replaced file keeps
 * being seen, as editors and our own atomic writes replace it) plus a polling fallback
 * (fs.watchFile) for file systems where fs.watch misses changes. Calls are coalesced
 * (`debounceMs`). `close()` stops both.
 */
import { watch, watchFile, unwatchFile, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

export class FileWatch {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly file: string;

  constructor(file: string, private readonly onChange: () => void, private readonly debounceMs = 200, pollMs = 1000) {
    this.file = resolve(file);
    const name = basename(this.file);
    try {
      this.watcher = watch(dirname(this.file), (_event, changed) => {
        if (changed === null || changed === name) this.poke();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      this.watcher = undefined; // no fs.watch here: polling alone
    }
    watchFile(this.file, { interval: pollMs }, () => this.poke());
  }

  private poke(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onChange();
    }, this.debounceMs);
  }

  close(): void {
    this.watcher?.close();
    unwatchFile(this.file);
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}
