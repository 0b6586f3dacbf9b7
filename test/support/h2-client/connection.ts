/**
 * A raw HTTP/2 client connection for conformance tests: a `net` or `tls` (ALPN `h2`) socket that
 * writes whatever bytes a test gives it, parses every frame the server sends, decodes response
 * header blocks (one HPACK context per connection), and lets a test wait — boundedly — for a
 * condition on what has arrived so far.
 *
 * Contract:
 * - `open` writes the preface and our SETTINGS and, by default, waits for the server's SETTINGS
 *   (acknowledging it, as every later SETTINGS, unless `ackSettings` is false);
 * - `received` holds every frame in arrival order; `closed` turns true once the socket is gone
 *   (end, reset or error); writes after that are dropped;
 * - `waitUntil` resolves with the first non-undefined value of its check, evaluated now and
 *   after every frame and the close; past `timeoutMs` it rejects with what arrived.
 */
import hpack from 'hpack.js';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { describeFrame, Flag, frame, FrameReader, FrameType, PREFACE, settingsAck, settingsFrame, type Frame } from './frames.js';
import type { Fields } from './hpack-bytes.js';

/** Where a member's client port is: `http://host:port` or `https://host:port` with its CA. */
export interface Target {
  readonly url: string;
  readonly ca?: string;
}

export interface OpenOptions {
  /** Send the connection preface (default true). */
  readonly preface?: boolean;
  /** Our SETTINGS, sent after the preface (default none). `null`: send no SETTINGS frame. */
  readonly settings?: readonly (readonly [number, number])[] | null;
  /** Wait for the server's first SETTINGS frame before resolving (default true). */
  readonly handshake?: boolean;
  /** Acknowledge the server's SETTINGS frames (default true). */
  readonly ackSettings?: boolean;
  readonly timeoutMs?: number;
}

export const DEFAULT_WAIT_MS = 3_000;

export interface HeadersOptions {
  readonly endStream?: boolean;
  /** Default true. */
  readonly endHeaders?: boolean;
  readonly priority?: Buffer;
  /** Pad length: a PADDED frame with this many zero octets. */
  readonly pad?: number;
}

type Waiter = () => void;

export class H2Client {
  readonly received: Frame[] = [];
  /** Decoded response header blocks per stream, in order (HEADERS + CONTINUATIONs). */
  readonly headerBlocks = new Map<number, Fields[]>();
  /** The server's settings, as its SETTINGS frames set them. */
  readonly serverSettings = new Map<number, number>();
  /** The first bytes the server sent (to tell an HTTP/1.1 answer from frames). */
  firstBytes: Buffer = Buffer.alloc(0);
  closed = false;
  closeError: string | undefined;
  decodeError: string | undefined;
  readonly alpn: string | false;

  readonly #socket: Socket | TLSSocket;
  readonly #reader = new FrameReader();
  readonly #waiters = new Set<Waiter>();
  readonly #decoder = hpack.decompressor.create({ table: { maxSize: 4096 } });
  readonly #encoder = hpack.compressor.create({ table: { maxSize: 4096 } });
  #block: { streamId: number; parts: Buffer[] } | undefined;
  #ackSettings: boolean;
  /** Octets written so far, and ACKs of server SETTINGS held until the preface is out. */
  #written = 0;
  #heldAcks = 0;

  private constructor(socket: Socket | TLSSocket, alpn: string | false, ackSettings: boolean) {
    this.#socket = socket;
    this.alpn = alpn;
    this.#ackSettings = ackSettings;
    this.#decoder.on('error', (err: Error) => {
      this.decodeError ??= err.message;
    });
    socket.on('data', (bytes: Buffer) => this.#onData(bytes));
    socket.on('error', (err) => {
      this.closeError ??= err.message;
    });
    socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
  }

  /** Connects, writes the preface and SETTINGS, and (by default) waits for the server's SETTINGS. */
  static async open(target: Target, opts: OpenOptions = {}): Promise<H2Client> {
    const url = new URL(target.url);
    const port = Number(url.port);
    const host = url.hostname;
    const socket = await new Promise<Socket | TLSSocket>((resolve, reject) => {
      const s: Socket | TLSSocket =
        url.protocol === 'https:'
          ? tlsConnect({ host, port, ca: target.ca, ALPNProtocols: ['h2'] }, () => resolve(s))
          : netConnect({ host, port }, () => resolve(s));
      s.once('error', reject);
      s.setTimeout(opts.timeoutMs ?? DEFAULT_WAIT_MS, () => s.destroy(new Error('connect timed out')));
    });
    socket.setTimeout(0);
    socket.setNoDelay(true);
    const alpn = 'alpnProtocol' in socket ? (socket.alpnProtocol ?? false) : false;
    const client = new H2Client(socket, alpn, opts.ackSettings ?? true);
    if (opts.preface ?? true) client.write(PREFACE);
    if (opts.settings !== null) client.write(settingsFrame(opts.settings ?? []));
    if (opts.handshake ?? true) {
      await client.waitUntil('the server SETTINGS', () => (client.received.some((f) => f.type === FrameType.SETTINGS && (f.flags & Flag.ACK) === 0) ? true : undefined), opts.timeoutMs);
    }
    return client;
  }

  write(bytes: Buffer): void {
    if (this.closed || this.#socket.destroyed) return;
    this.#written += bytes.length;
    this.#socket.write(bytes);
    if (this.#written >= PREFACE.length && this.#heldAcks > 0) {
      // A client sends nothing before its preface is out (RFC 9113 §3.4): ACKs wait for it.
      for (; this.#heldAcks > 0; this.#heldAcks--) this.#socket.write(settingsAck());
    }
  }

  /** Writes `bytes` in pieces cut at `cuts` (offsets), one socket write per turn of the loop. */
  async writeSplit(bytes: Buffer, cuts: readonly number[]): Promise<void> {
    let from = 0;
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      if (cut <= from || cut >= bytes.length) continue;
      this.write(bytes.subarray(from, cut));
      from = cut;
      await new Promise((r) => setImmediate(r));
    }
    this.write(bytes.subarray(from));
  }

  /** An HPACK block from this connection's encoder (dynamic table in use, Huffman as it likes). */
  encode(fields: Fields): Buffer {
    this.#encoder.write(fields.map(([name, value]) => ({ name, value })));
    return this.#encoder.read() ?? Buffer.alloc(0);
  }

  /** A HEADERS frame carrying `block` (or `fields` through this connection's encoder). */
  headersFrame(streamId: number, block: Buffer | Fields, opts: HeadersOptions = {}): Buffer {
    const bytes = Buffer.isBuffer(block) ? block : this.encode(block);
    let flags = (opts.endStream === true ? Flag.END_STREAM : 0) | (opts.endHeaders === false ? 0 : Flag.END_HEADERS);
    let payload = opts.priority !== undefined ? Buffer.concat([opts.priority, bytes]) : bytes;
    if (opts.priority !== undefined) flags |= Flag.PRIORITY;
    if (opts.pad !== undefined) {
      flags |= Flag.PADDED;
      payload = Buffer.concat([Buffer.from([opts.pad]), payload, Buffer.alloc(opts.pad)]);
    }
    return frame(FrameType.HEADERS, flags, streamId, payload);
  }

  headers(streamId: number, block: Buffer | Fields, opts: HeadersOptions = {}): void {
    this.write(this.headersFrame(streamId, block, opts));
  }

  data(streamId: number, payload: Buffer, endStream = false): void {
    this.write(frame(FrameType.DATA, endStream ? Flag.END_STREAM : 0, streamId, payload));
  }

  /** Frames received on `streamId` so far. */
  onStream(streamId: number): Frame[] {
    return this.received.filter((f) => f.streamId === streamId);
  }

  /** A readable account of what arrived, for failure messages. */
  transcript(): string {
    const lines = this.received.map(describeFrame);
    if (this.firstBytes.length > 0 && !this.firstBytes.subarray(0, 3).equals(Buffer.from([0, 0, 0])) && this.received.length === 0) {
      lines.push(`raw: ${JSON.stringify(this.firstBytes.subarray(0, 200).toString('latin1'))}`);
    }
    if (this.decodeError !== undefined) lines.push(`HPACK decode error: ${this.decodeError}`);
    lines.push(this.closed ? `closed${this.closeError !== undefined ? ` (${this.closeError})` : ''}` : 'still open');
    return lines.join('\n  ');
  }

  /** Resolves with `check()`'s first defined value; rejects after `timeoutMs` naming `what`. */
  waitUntil<T>(what: string, check: () => T | undefined, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const evaluate = (): boolean => {
        let value: T | undefined;
        try {
          value = check();
        } catch (err) {
          finish();
          reject(err instanceof Error ? err : new Error(String(err)));
          return true;
        }
        if (value === undefined) return false;
        finish();
        resolve(value);
        return true;
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no ${what} within ${timeoutMs} ms; received:\n  ${this.transcript()}`));
      }, timeoutMs);
      const waiter: Waiter = () => void evaluate();
      const finish = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
      };
      if (!evaluate()) this.#waiters.add(waiter);
    });
  }

  /** Ends our side and drops the socket. */
  close(): void {
    this.#socket.destroy();
  }

  #wake(): void {
    for (const w of [...this.#waiters]) w();
  }

  #onData(bytes: Buffer): void {
    if (this.firstBytes.length < 64) this.firstBytes = Buffer.concat([this.firstBytes, bytes]).subarray(0, 64);
    for (const f of this.#reader.push(bytes)) {
      this.received.push(f);
      this.#onFrame(f);
    }
    this.#wake();
  }

  #onFrame(f: Frame): void {
    if (f.type === FrameType.SETTINGS && (f.flags & Flag.ACK) === 0) {
      for (let i = 0; i + 6 <= f.payload.length; i += 6) this.serverSettings.set(f.payload.readUInt16BE(i), f.payload.readUInt32BE(i + 2));
      if (this.#ackSettings && this.#written >= PREFACE.length) this.write(settingsAck());
      else if (this.#ackSettings) this.#heldAcks++;
    } else if (f.type === FrameType.HEADERS || f.type === FrameType.PUSH_PROMISE) {
      let p = f.payload;
      let pad = 0;
      if ((f.flags & Flag.PADDED) !== 0) {
        pad = p[0];
        p = p.subarray(1);
      }
      if (f.type === FrameType.HEADERS && (f.flags & Flag.PRIORITY) !== 0) p = p.subarray(5);
      if (f.type === FrameType.PUSH_PROMISE) p = p.subarray(4);
      this.#block = { streamId: f.streamId, parts: [p.subarray(0, p.length - pad)] };
      if ((f.flags & Flag.END_HEADERS) !== 0) this.#endBlock();
    } else if (f.type === FrameType.CONTINUATION && this.#block !== undefined) {
      this.#block.parts.push(f.payload);
      if ((f.flags & Flag.END_HEADERS) !== 0) this.#endBlock();
    }
  }

  #endBlock(): void {
    const block = this.#block;
    this.#block = undefined;
    if (block === undefined) return;
    const fields: [string, string][] = [];
    if (this.decodeError === undefined) {
      this.#decoder.write(Buffer.concat(block.parts));
      this.#decoder.execute();
      for (let h = this.#decoder.read(); h !== null; h = this.#decoder.read()) fields.push([h.name, h.value]);
    }
    const list = this.headerBlocks.get(block.streamId) ?? [];
    list.push(fields);
    this.headerBlocks.set(block.streamId, list);
  }
}
