/**
 * X.509 issuance for local mode with the `selfsigned` package (Node's crypto parses
 * certificates but cannot sign them): a self-signed CA, and leaf certificates signed by it.
 * Keys are ECDSA P-256, certificates SHA-256-signed; PEM out (keys as PKCS#8).
 *
 * - the CA: basicConstraints CA:TRUE (critical), keyUsage keyCertSign + cRLSign;
 * - a member: SANs = its loopback IP and `localhost`, extendedKeyUsage serverAuth + clientAuth
 *   (one certificate serves its client listener, its peer listener and its peer dialing);
 * - the operator: CN only, extendedKeyUsage clientAuth.
 */
import { generate } from 'selfsigned';

const DAY_MS = 86_400_000;

export interface Pem {
  readonly cert: string;
  readonly key: string;
}

export interface LeafRequest {
  readonly commonName: string;
  /** IP addresses and DNS names (none for a pure client certificate). */
  readonly ips?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly server: boolean;
  readonly validDays: number;
}

type Options = NonNullable<Parameters<typeof generate>[1]>;
type Extensions = NonNullable<Options['extensions']>;

const base = (now: number, validDays: number): Options => ({
  keyType: 'ec',
  curve: 'P-256',
  algorithm: 'sha256',
  // A minute back, against clock skew between the operator and the members.
  notBeforeDate: new Date(now - 60_000),
  notAfterDate: new Date(now + validDays * DAY_MS),
});

/** A new self-signed CA valid for `validDays` from now. */
export async function issueCa(commonName: string, validDays: number, now: number): Promise<Pem> {
  const extensions: Extensions = [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ];
  const r = await generate([{ name: 'commonName', value: commonName }], { ...base(now, validDays), extensions });
  return { cert: r.cert, key: r.private };
}

/** A leaf certificate for `req`, signed by `ca`. */
export async function issueLeaf(ca: Pem, req: LeafRequest, now: number): Promise<Pem> {
  const altNames = [...(req.ips ?? []).map((ip) => ({ type: 7 as const, ip })), ...(req.dnsNames ?? []).map((value) => ({ type: 2 as const, value }))];
  const extensions: Extensions = [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: req.server, clientAuth: true },
    ...(altNames.length === 0 ? [] : [{ name: 'subjectAltName' as const, altNames }]),
  ];
  const r = await generate([{ name: 'commonName', value: req.commonName }], { ...base(now, req.validDays), extensions, ca: { key: ca.key, cert: ca.cert } });
  return { cert: r.cert, key: r.private };
}
