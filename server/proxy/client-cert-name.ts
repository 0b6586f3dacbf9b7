/**
 * The gRPC proxy dials the members with the certificate `--cert` names. etcd refuses one whose
 * subject has a Common Name: a member with auth on would take that name as the user of every
 * call the proxy forwards, whoever the caller is. The check reads the certificate's subject.
 */
import { X509Certificate } from 'node:crypto';

/** The certificate's subject Common Name, or '' when it has none. */
export function commonName(pem: Buffer): string {
  const subject = new X509Certificate(pem).subject;
  const line = subject.split('\n').find((l) => l.startsWith('CN='));
  return line === undefined ? '' : line.slice(3);
}

/** etcd's refusal, or undefined for a certificate without a Common Name. */
export function nonEmptyCnProblem(pem: Buffer): string | undefined {
  const cn = commonName(pem);
  return cn === '' ? undefined : `cert has non empty Common Name (${cn})`;
}
