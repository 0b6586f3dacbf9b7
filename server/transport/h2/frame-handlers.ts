/**
 * Every frame an `H2Connection` reads, dispatched by type: the frames of a request go to
 * `RequestFrames` (request-frames.ts); the connection's own frames are handled here — SETTINGS
 * (applied to what we send, acknowledged), PING (answered), GOAWAY, PRIORITY (checked, otherwise
 * ignored), RST_STREAM, WINDOW_UPDATE, PUSH_PROMISE (refused) and unknown types (ignored).
 *
 * Contract (RFC 9113; the table in server/transport/README.md, "What the connection enforces"):
 * - a connection error is thrown (`H2ConnectionError`), caught by the connection's read loop;
 *   a stream error goes through `core.streams.error`;
 * - the first frame after the preface must be the client's SETTINGS (not an ACK: RFC 9113 §3.4),
 *   anything else is a connection PROTOCOL_ERROR;
 * - any frame but CONTINUATION inside an open header block is a connection PROTOCOL_ERROR;
 * - each frame a flood bound counts (flood-guard.ts) spends its token before it takes effect;
 * - a frame on an idle stream that would need a RST_STREAM there is a connection error (§6.4).
 */
import { encodeFrame, FrameFlag, FrameType, H2Error } from '../http2-frames.js';
import type { ConnectionCore } from './connection-core.js';
import { H2ConnectionError } from './connection-error.js';
import { FloodKind } from './flood-guard.js';
import { readPeerSettings } from './peer-settings.js';
import type { RequestFrames } from './request-frames.js';

export class FrameHandlers {
  readonly #core: ConnectionCore;
  readonly #request: RequestFrames;
  #settingsSeen = false;

  constructor(core: ConnectionCore, request: RequestFrames) {
    this.#core = core;
    this.#request = request;
  }

  /** One frame, as the frame reader splits them. */
  frame(type: number, flags: number, id: number, payload: Buffer): void {
    if (!this.#settingsSeen) {
      if (type !== FrameType.Settings || (flags & FrameFlag.Ack) !== 0) throw new H2ConnectionError(H2Error.ProtocolError, 'the client preface is not followed by SETTINGS');
      this.#settingsSeen = true;
    }
    if (this.#request.inHeaderBlock && type !== FrameType.Continuation) throw new H2ConnectionError(H2Error.ProtocolError, `frame type ${type} inside a header block`);
    switch (type) {
      case FrameType.Data:
        return this.#request.dataFrame(flags, id, payload);
      case FrameType.Headers:
      case FrameType.Continuation:
        return this.#request.headerFrame(type, flags, id, payload);
      case FrameType.Priority:
        return this.#onPriority(id, payload);
      case FrameType.RstStream:
        return this.#onReset(id, payload);
      case FrameType.Settings:
        return this.#onSettings(flags, id, payload);
      case FrameType.PushPromise:
        throw new H2ConnectionError(H2Error.ProtocolError, 'PUSH_PROMISE from a client');
      case FrameType.Ping:
        return this.#onPing(flags, id, payload);
      case FrameType.GoAway:
        if (id !== 0) throw new H2ConnectionError(H2Error.ProtocolError, 'GOAWAY on a stream');
        if (payload.length < 8) throw new H2ConnectionError(H2Error.FrameSizeError, 'GOAWAY shorter than 8 bytes');
        this.#core.peerGoingAway(); // any error code, known or not
        return;
      case FrameType.WindowUpdate:
        return this.#onWindowUpdate(id, payload);
      default:
        // Unknown frame types are ignored (RFC 9113 §4.1, §5.5), within the empty-frame bound.
        this.#core.spend(FloodKind.EmptyFrames, 'frames of unknown types');
        return;
    }
  }

  #onPing(flags: number, id: number, payload: Buffer): void {
    if (id !== 0) throw new H2ConnectionError(H2Error.ProtocolError, 'PING on a stream');
    if (payload.length !== 8) throw new H2ConnectionError(H2Error.FrameSizeError, 'PING of the wrong size');
    if (flags & FrameFlag.Ack) {
      this.#core.spend(FloodKind.EmptyFrames, 'PING ACKs never asked for'); // we send no PING
      return;
    }
    this.#core.spend(FloodKind.Ping, 'PING flood');
    this.#core.queue(encodeFrame(FrameType.Ping, FrameFlag.Ack, 0, payload));
  }

  #onPriority(id: number, payload: Buffer): void {
    const core = this.#core;
    if (id === 0) throw new H2ConnectionError(H2Error.ProtocolError, 'PRIORITY on stream 0');
    core.spend(FloodKind.Priority, 'PRIORITY flood');
    // Stream errors on an idle stream would need a RST_STREAM there, which RFC 9113 §6.4 forbids: connection errors.
    const idle = id > core.streams.history.lastOpened;
    if (payload.length !== 5) {
      if (idle) throw new H2ConnectionError(H2Error.FrameSizeError, 'PRIORITY of the wrong size');
      return core.streams.error(id, H2Error.FrameSizeError);
    }
    if ((payload.readUInt32BE(0) & 0x7fff_ffff) === id) {
      if (idle) throw new H2ConnectionError(H2Error.ProtocolError, `stream ${id} depends on itself`);
      return core.streams.error(id, H2Error.ProtocolError);
    }
  }

  #onReset(id: number, payload: Buffer): void {
    const core = this.#core;
    if (id === 0) throw new H2ConnectionError(H2Error.ProtocolError, 'RST_STREAM on stream 0');
    if (payload.length !== 4) throw new H2ConnectionError(H2Error.FrameSizeError, 'RST_STREAM of the wrong size');
    if (id > core.streams.history.lastOpened) throw new H2ConnectionError(H2Error.ProtocolError, `RST_STREAM on idle stream ${id}`);
    const stream = core.streams.get(id);
    if (stream === undefined) {
      core.spend(FloodKind.EmptyFrames, 'RST_STREAM on closed streams');
      return;
    }
    if (!stream.responded) core.spend(FloodKind.RapidReset, 'streams reset before their answer (rapid reset)');
    core.streams.close(stream, 'reset-received', payload.readUInt32BE(0)); // any error code, known or not
  }

  #onSettings(flags: number, id: number, payload: Buffer): void {
    const core = this.#core;
    const settings = readPeerSettings(flags, id, payload);
    if (settings.kind === 'ack') return;
    core.spend(FloodKind.Settings, 'SETTINGS flood');
    core.send.applySettings(settings.initialWindowSize, settings.maxFrameSize, core.streams.values());
    core.queue(encodeFrame(FrameType.Settings, FrameFlag.Ack, 0, Buffer.alloc(0)));
    core.send.resumeAll();
  }

  #onWindowUpdate(id: number, payload: Buffer): void {
    const core = this.#core;
    if (payload.length !== 4) throw new H2ConnectionError(H2Error.FrameSizeError, 'WINDOW_UPDATE of the wrong size');
    const increment = payload.readUInt32BE(0) & 0x7fff_ffff;
    if (id === 0) {
      if (increment === 0) throw new H2ConnectionError(H2Error.ProtocolError, 'WINDOW_UPDATE of 0');
      core.send.connectionGrew(increment);
      return;
    }
    if (id > core.streams.history.lastOpened) throw new H2ConnectionError(H2Error.ProtocolError, `WINDOW_UPDATE on idle stream ${id}`);
    const stream = core.streams.get(id);
    if (stream === undefined) return; // closed: updates sent before the client saw the end (§5.1)
    if (increment === 0) return core.streams.error(id, H2Error.ProtocolError);
    if (!core.send.grow(stream, increment)) return core.streams.error(id, H2Error.FlowControlError);
  }
}
