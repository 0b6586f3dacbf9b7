/**
 * A gate between an accepted TCP socket and the TLS server engine that lets the server refuse a
 * client certificate *inside* the handshake, with a `bad_certificate` alert, as etcd does for a
 * peer certificate whose CN or hostname is not allowed (`--peer-cert-allowed-cn`, …-hostname).
 *
 * Node's TLS server accepts every client certificate during the handshake and lets the
 * application look at it only once the handshake is done (its verify callback always returns 1),
 * so the policy cannot run inside OpenSSL. In TLS 1.2 (full handshake, no resumption) the server
 * processes the client's Certificate before it sends its own ChangeCipherSpec and Finished; the
 * gate forwards the engine's output up to its first ChangeCipherSpec record and holds the rest.
 * When the engine reports the handshake done, the owner looks at the certificate and either
 * `release()`s the held bytes (the client then completes its handshake) or `refuse()`s: the held
 * bytes are dropped and a plaintext fatal `bad_certificate` alert is sent instead, so the client
 * sees its handshake fail with "remote error: tls: bad certificate" (Go's words).
 *
 * Contract:
 * - `stream` is what the TLS engine reads from and writes to (it stands for `raw`);
 * - before the hold, bytes pass both ways unchanged; after `release()` they pass unchanged too;
 * - the owner must cap the server at TLS 1.2 and disable session resumption (a resumed or
 *   TLS 1.3 handshake sends ChangeCipherSpec before the client's certificate: it would be held
 *   until the owner's handshake timeout);
 * - the engine destroying the stream while output is held, or once the client's whole
 *   certificate flight (up to its ChangeCipherSpec) came in, is a refusal too (Node's own
 *   refusal of a certificate from an unknown CA happens there); otherwise it destroys `raw`;
 * - the engine may report the handshake done before or after it writes its ChangeCipherSpec:
 *   `release()` / `refuse()` work at either point (nothing held yet: nothing to send or drop);
 * - `raw`'s errors are the stream's; an 'error' listener on `raw` stays for its whole life.
 */
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { badCertificateAlert, RecordType, TlsRecordScanner } from './tls-records.js';

export interface HandshakeGate {
  /** What the TLS engine uses as its socket. */
  readonly stream: Duplex;
  /** Whether the server's output is being held (the handshake reached the decision point). */
  readonly holding: boolean;
  /** Sends what was held and lets everything through from now on. */
  release(): void;
  /** Drops what was held, sends a fatal bad_certificate alert, ends and then destroys `raw`. */
  refuse(): void;
}

type GateState = 'open' | 'holding' | 'released' | 'refused';

export function handshakeGate(raw: Socket): HandshakeGate {
  const scanner = new TlsRecordScanner();
  const incoming = new TlsRecordScanner();
  /** The client's ChangeCipherSpec came in: its certificate flight is complete. */
  let clientFlightDone = false;
  let state: GateState = 'open';
  let held: Buffer[] = [];

  const refuse = (): void => {
    if (state === 'refused' || state === 'released') return;
    state = 'refused';
    held = [];
    if (raw.destroyed) return;
    raw.end(badCertificateAlert(), () => raw.destroy());
  };

  const stream = new Duplex({
    read() {
      raw.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      if (state === 'released') {
        raw.write(chunk, (err) => callback(err ?? null));
        return;
      }
      if (state === 'open') {
        const at = scanner.findRecord(chunk, RecordType.ChangeCipherSpec);
        if (at < 0) {
          raw.write(chunk);
          callback();
          return;
        }
        if (at > 0) raw.write(chunk.subarray(0, at));
        state = 'holding';
        chunk = chunk.subarray(at);
      }
      if (state === 'holding') held.push(chunk);
      callback();
    },
    final(callback) {
      if (state === 'released' || state === 'open') raw.end(() => callback());
      else callback();
    },
    destroy(err, callback) {
      if (state === 'holding' || (state === 'open' && clientFlightDone)) refuse();
      else if (state !== 'refused') raw.destroy();
      callback(err);
    },
  });

  raw.on('data', (chunk: Buffer) => {
    if (!clientFlightDone && state === 'open') clientFlightDone = incoming.findRecord(chunk, RecordType.ChangeCipherSpec) >= 0;
    if (!stream.push(chunk)) raw.pause();
  });
  raw.on('end', () => stream.push(null));
  raw.on('error', (err) => stream.destroy(err));
  raw.on('close', () => {
    if (!stream.destroyed) stream.destroy();
  });

  return {
    stream,
    get holding() {
      return state === 'holding';
    },
    release() {
      if (state !== 'holding' && state !== 'open') return;
      state = 'released';
      const out = held;
      held = [];
      for (const chunk of out) raw.write(chunk);
    },
    refuse,
  };
}
