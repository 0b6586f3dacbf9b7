/**
 * A client's SETTINGS frame read and checked (RFC 9113 §6.5): what of it binds what we send.
 *
 * Contract: pure; throws `H2ConnectionError` for a frame the RFC makes a connection error:
 * on a stream (PROTOCOL_ERROR), an ACK with a payload or a length not a multiple of 6
 * (FRAME_SIZE_ERROR), SETTINGS_ENABLE_PUSH other than 0 or 1 (PROTOCOL_ERROR),
 * SETTINGS_INITIAL_WINDOW_SIZE over 2^31−1 (FLOW_CONTROL_ERROR), SETTINGS_MAX_FRAME_SIZE outside
 * 2^14..2^24−1 (PROTOCOL_ERROR). Unknown ids are ignored; a repeated id: the last value wins.
 * HEADER_TABLE_SIZE does not bind us (our blocks never use the client's table), nor do
 * MAX_CONCURRENT_STREAMS (we push nothing) and MAX_HEADER_LIST_SIZE (advisory).
 */
import { H2ConnectionError } from './connection-error.js';
import { DEFAULT_MAX_FRAME_SIZE, FrameFlag, H2Error, SettingId } from '../http2-frames.js';

export const MAX_WINDOW = 0x7fff_ffff;
const MAX_FRAME_SIZE_LIMIT = 0xff_ffff;

export type PeerSettings =
  | { readonly kind: 'ack' }
  | {
      readonly kind: 'settings';
      readonly initialWindowSize: number | undefined;
      readonly maxFrameSize: number | undefined;
    };

export function readPeerSettings(flags: number, streamId: number, payload: Buffer): PeerSettings {
  if (streamId !== 0) throw new H2ConnectionError(H2Error.ProtocolError, 'SETTINGS on a stream');
  if (flags & FrameFlag.Ack) {
    if (payload.length !== 0) throw new H2ConnectionError(H2Error.FrameSizeError, 'SETTINGS ACK with a payload');
    return { kind: 'ack' };
  }
  if (payload.length % 6 !== 0) throw new H2ConnectionError(H2Error.FrameSizeError, 'SETTINGS of the wrong size');
  let initialWindowSize: number | undefined;
  let maxFrameSize: number | undefined;
  for (let at = 0; at < payload.length; at += 6) {
    const key = payload.readUInt16BE(at);
    const value = payload.readUInt32BE(at + 2);
    if (key === SettingId.InitialWindowSize) {
      if (value > MAX_WINDOW) throw new H2ConnectionError(H2Error.FlowControlError, 'SETTINGS_INITIAL_WINDOW_SIZE over 2^31-1');
      initialWindowSize = value;
    } else if (key === SettingId.MaxFrameSize) {
      if (value < DEFAULT_MAX_FRAME_SIZE || value > MAX_FRAME_SIZE_LIMIT) throw new H2ConnectionError(H2Error.ProtocolError, 'SETTINGS_MAX_FRAME_SIZE out of range');
      maxFrameSize = value;
    } else if (key === SettingId.EnablePush && value > 1) {
      throw new H2ConnectionError(H2Error.ProtocolError, 'SETTINGS_ENABLE_PUSH not 0 or 1');
    }
  }
  return { kind: 'settings', initialWindowSize, maxFrameSize };
}
