/** The bounded send side of a client watch stream: a slow reader overflows alone, once. */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { WatchOutbox } from '../../../server/proxy/watch-outbox.js';

class SlowSink extends EventEmitter {
  readonly written: string[] = [];
  room: number;
  constructor(room: number) {
    super();
    this.room = room;
  }
  write(b: Buffer): boolean {
    this.written.push(b.toString());
    return --this.room > 0;
  }
}

void describe('WatchOutbox', () => {
  void it('writes in order, waits on push-back, resumes on drain', () => {
    const sink = new SlowSink(2);
    const box = new WatchOutbox(sink, 10);
    for (const s of ['a', 'b', 'c', 'd']) assert.equal(box.push(Buffer.from(s)), 'ok');
    assert.deepEqual(sink.written, ['a', 'b']);
    assert.equal(box.waiting, 2);
    sink.room = 10;
    sink.emit('drain');
    assert.deepEqual(sink.written, ['a', 'b', 'c', 'd']);
    assert.equal(box.waiting, 0);
  });

  void it('overflows once past its limit, then takes nothing', () => {
    const sink = new SlowSink(1);
    const box = new WatchOutbox(sink, 2);
    const got = ['a', 'b', 'c', 'd', 'e'].map((s) => box.push(Buffer.from(s)));
    assert.deepEqual(got, ['ok', 'ok', 'ok', 'overflow', 'closed']);
    sink.room = 10;
    sink.emit('drain');
    assert.deepEqual(sink.written, ['a']);
  });
});
