/**
 * Pure: a TLS alert received from the remote end, in Go's words ("remote error: tls: bad
 * certificate"), from a Node/OpenSSL error ("… sslv3 alert bad certificate … SSL alert number
 * 42"). etcd logs a peer's refusal of our certificate in those words (its e2e tests wait for
 * them), so kvstore's dialer reports it the same way.
 *
 * Contract: undefined when the error is not a received alert.
 */

/** Alert descriptions (RFC 8446 §6, RFC 5246 §7.2) as Go's crypto/tls names them. */
const ALERT_NAMES: Readonly<Record<number, string>> = {
  0: 'close notify',
  10: 'unexpected message',
  20: 'bad record MAC',
  21: 'decryption failed',
  22: 'record overflow',
  30: 'decompression failure',
  40: 'handshake failure',
  42: 'bad certificate',
  43: 'unsupported certificate',
  44: 'revoked certificate',
  45: 'expired certificate',
  46: 'unknown certificate',
  47: 'illegal parameter',
  48: 'unknown certificate authority',
  49: 'access denied',
  50: 'error decoding message',
  51: 'error decrypting message',
  70: 'protocol version not supported',
  71: 'insufficient security level',
  80: 'internal error',
  86: 'inappropriate fallback',
  90: 'user canceled',
  100: 'no renegotiation',
  109: 'missing extension',
  110: 'unsupported extension',
  112: 'unrecognized name',
  113: 'bad certificate status response',
  115: 'unknown PSK identity',
  116: 'certificate required',
  120: 'no application protocol',
};

/** "remote error: tls: <alert>" for an error that reports an alert the remote sent. */
export function remoteAlertText(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  // OpenSSL's text for a received alert ("… alert bad certificate … SSL alert number 42"), under
  // code ERR_SSL_*_ALERT_* from tls.connect and EPROTO ("write EPROTO …") from an https request.
  const m = /\balert\b.*SSL alert number (\d+)/s.exec(err.message);
  if (m === null) return undefined;
  const n = Number(m[1]);
  return `remote error: tls: ${ALERT_NAMES[n] ?? `alert(${n})`}`;
}
