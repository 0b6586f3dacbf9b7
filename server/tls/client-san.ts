/**
 * etcd's peer client SAN check (`checkCertSAN`, on unless
 * `--experimental-peer-skip-client-san-verification`): a peer's client certificate that names
 * IP addresses or DNS names must name the address the connection comes from, either as an IP
 * SAN or as a DNS name that resolves to it. A certificate without IP and DNS SANs passes.
 *
 * `resolve` is the name lookup (dns.promises.lookup with all addresses in production), passed in.
 */
import { BlockList, isIPv4 } from 'node:net';

export type Resolve = (name: string) => Promise<readonly string[]>;

/** SANs from Node's `subjectaltname` text (`DNS:a, IP Address:127.0.0.1`). */
export function parseSans(text: string | undefined): { dns: string[]; ips: string[] } {
  const dns: string[] = [];
  const ips: string[] = [];
  for (const part of (text ?? '').split(', ')) {
    if (part.startsWith('DNS:')) dns.push(part.slice(4));
    else if (part.startsWith('IP Address:')) ips.push(part.slice(11));
  }
  return { dns, ips };
}

function sameIp(a: string, b: string): boolean {
  const list = new BlockList();
  try {
    list.addAddress(a, isIPv4(a) ? 'ipv4' : 'ipv6');
    return list.check(b, isIPv4(b) ? 'ipv4' : 'ipv6');
  } catch {
    return false;
  }
}

/** Undefined when `remote` is allowed by the certificate's SANs, else etcd's reason. */
export async function clientSanProblem(subjectAltName: string | undefined, remote: string, resolve: Resolve): Promise<string | undefined> {
  const { dns, ips } = parseSans(subjectAltName);
  if (dns.length === 0 && ips.length === 0) return undefined;
  let problem: string | undefined;
  if (ips.length > 0) {
    if (ips.some((ip) => sameIp(ip, remote))) return undefined;
    problem = `x509: certificate is valid for ${ips.join(', ')}, not ${remote}`;
  }
  if (dns.length > 0) {
    const failures: string[] = [];
    for (const name of dns) {
      try {
        if ((await resolve(name)).some((ip) => sameIp(ip, remote))) return undefined;
      } catch (e) {
        failures.push((e as Error).message);
      }
    }
    problem ??= `tls: ${JSON.stringify(remote)} does not match any of DNSNames ${JSON.stringify(dns)}${failures.length > 0 ? ` (${failures[0]})` : ''}`;
  }
  return problem;
}
