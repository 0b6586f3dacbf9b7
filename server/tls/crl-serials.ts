/**
 * The revoked serial numbers of a certificate revocation list, read as etcd reads
 * `--client-crl-file` / `--peer-crl-file` (Go's `x509.ParseCRL`): a file that starts with
 * `-----BEGIN X509 CRL` is PEM (its first block of that type), anything else is DER.
 *
 * Pure. Only what etcd uses is read: the serial of every revoked entry. As etcd, the list's
 * dates and signature are not checked — a connection is refused when one certificate of its
 * chain has a serial the list names (tls-acceptor.ts), nothing else.
 *
 * Serials are compared as Go compares them (`SerialNumber.Bytes()`): the magnitude in
 * big-endian bytes without leading zeros, here as upper-case hex (`serialKey`).
 */

export type CrlRead =
  | { readonly ok: true; readonly revoked: ReadonlySet<string> }
  | { readonly ok: false; readonly reason: string };

const PEM_PREFIX = '-----BEGIN X509 CRL';

/** `serial` as a key of `revoked`: hex digits, leading zeros dropped, upper case ('' for zero). */
export function serialKey(hex: string): string {
  return hex.replace(/[^0-9a-fA-F]/g, '').replace(/^0+/, '').toUpperCase();
}

export function readCrlSerials(file: Uint8Array): CrlRead {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  let der: Buffer = bytes;
  if (bytes.subarray(0, PEM_PREFIX.length).toString('latin1') === PEM_PREFIX) {
    const block = firstPemBlock(bytes.toString('latin1'));
    if (block === undefined) return { ok: false, reason: 'x509: failed to parse CRL: no PEM block' };
    der = block;
  }
  try {
    return { ok: true, revoked: revokedOf(der) };
  } catch (err) {
    return { ok: false, reason: `x509: failed to parse CRL: ${(err as Error).message}` };
  }
}

function firstPemBlock(text: string): Buffer | undefined {
  const m = /-----BEGIN X509 CRL-----\r?\n([\s\S]*?)-----END X509 CRL-----/.exec(text);
  return m === null ? undefined : Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
}

interface Tlv {
  readonly tag: number;
  /** Content start and end (exclusive) in the buffer. */
  readonly start: number;
  readonly end: number;
}

/** One DER element at `at`; throws on a truncated or indefinite-length one. */
function tlvAt(b: Buffer, at: number, limit: number): Tlv {
  if (at + 2 > limit) throw new Error('truncated element');
  const tag = b[at]!;
  let len = b[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error('unsupported length');
    if (start + n > limit) throw new Error('truncated length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + b[start + i]!;
    start += n;
  }
  const end = start + len;
  if (end > limit) throw new Error('truncated element');
  return { tag, start, end };
}

function children(b: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end; ) {
    const t = tlvAt(b, at, parent.end);
    out.push(t);
    at = t.end;
  }
  return out;
}

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const UTC_TIME = 0x17;
const GENERALIZED_TIME = 0x18;

function revokedOf(der: Buffer): Set<string> {
  const list = tlvAt(der, 0, der.length);
  if (list.tag !== SEQUENCE) throw new Error('not a CertificateList');
  const tbs = children(der, list)[0];
  if (tbs?.tag !== SEQUENCE) throw new Error('no TBSCertList');
  const fields = children(der, tbs);
  let i = 0;
  if (fields[i]?.tag === INTEGER) i++; // version
  i += 2; // signature algorithm, issuer
  if (fields[i]?.tag !== UTC_TIME && fields[i]?.tag !== GENERALIZED_TIME) throw new Error('no thisUpdate');
  i++;
  if (fields[i]?.tag === UTC_TIME || fields[i]?.tag === GENERALIZED_TIME) i++; // nextUpdate
  const revoked = new Set<string>();
  const entries = fields[i];
  if (entries?.tag !== SEQUENCE) return revoked;
  for (const entry of children(der, entries)) {
    const serial = children(der, entry)[0];
    if (serial?.tag !== INTEGER) throw new Error('revoked entry without a serial');
    revoked.add(serialKey(der.subarray(serial.start, serial.end).toString('hex')));
  }
  return revoked;
}
