/**
 * One direction-pair of the front end ↔ core channel over a `MessagePort` (or a `Worker`, or
 * `parentPort`): records written during an event-loop turn are posted together at the end of
 * the turn (`setImmediate`), as one transferred buffer (records.ts). Control messages (start,
 * listening, close, log lines) go on the same port, after the records written before them, so
 * the order on the port is the order of writing.
 *
 * Message shapes: `{ b: ArrayBuffer, n: length, x: extras }` for a turn, `{ c: control }`.
 */
import { readRecords, RecordWriter, type RecordView } from './records.js';

/** What both `Worker` and `MessagePort` offer. */
export interface PortLike {
  postMessage(value: unknown, transfer?: readonly ArrayBuffer[]): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
}

interface TurnMessage {
  readonly b: ArrayBuffer;
  readonly n: number;
  readonly x: readonly unknown[];
}

export interface ChannelHandlers {
  /** Each record of a received turn, in order; `extras` are the turn's structured values. */
  readonly record: (r: RecordView, extras: readonly unknown[]) => void;
  /** After the last record of a received turn. */
  readonly turnEnd?: () => void;
  readonly control: (message: unknown) => void;
}

export class TurnChannel {
  readonly #port: PortLike;
  readonly #out = new RecordWriter();
  #scheduled = false;
  /** Called before each post of records, while records may still be added to it. */
  beforePost: (() => void) | undefined;

  constructor(port: PortLike, handlers: ChannelHandlers) {
    this.#port = port;
    port.on('message', (m: unknown) => {
      const message = m as Partial<TurnMessage> & { c?: unknown };
      if (message.b !== undefined) {
        const extras = message.x ?? [];
        readRecords(message.b, message.n ?? 0, (r) => handlers.record(r, extras));
        handlers.turnEnd?.();
      } else handlers.control(message.c);
    });
  }

  /** Adds a record to this turn's post. */
  record(kind: number, conn: number, stream: number, arg: number, payload?: Uint8Array): void {
    this.#out.record(kind, conn, stream, arg, payload);
    this.#schedule();
  }

  /** Adds a structured value to this turn's post; returns its index (for a record's `arg`). */
  extra(value: unknown): number {
    this.#schedule();
    return this.#out.extra(value);
  }

  /** Posts a control message, after the records written so far. */
  control(message: unknown): void {
    this.flush();
    this.#port.postMessage({ c: message });
  }

  /** Posts the records written so far now. */
  flush(): void {
    if (this.#out.empty) return;
    this.beforePost?.();
    const { buffer, length, extras } = this.#out.take();
    this.#port.postMessage({ b: buffer, n: length, x: extras } satisfies TurnMessage, [buffer]);
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.flush();
    });
  }
}
