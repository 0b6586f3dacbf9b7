/**
 * TLS checks across flags (etcd's rules and messages), and the protocol settings shared by the
 * client and peer sides (`--cipher-suites`, `--tls-min-version`, `--tls-max-version`). Pure.
 *
 * Rules:
 * - an https client URL needs `--cert-file` and `--key-file`, or `--auto-tls`;
 * - an https peer URL needs `--peer-cert-file` and `--peer-key-file`, or `--peer-auto-tls`;
 * - a side serving https with only one of cert/key fails (etcd: "KeyFile and CertFile must both
 *   be present");
 * - `--peer-cert-allowed-cn` and `--peer-cert-allowed-hostname` exclude each other;
 * - http URLs of a side with certificates or client-cert-auth warn that those are ignored there;
 *   auto TLS with certificates given warns that it is ignored;
 * - `--tls-min-version`/`--tls-max-version` are read from 3.5 on (below, the flag only warns).
 */
import type { SecureVersion } from 'node:tls';
import { opensslCiphers } from '../tls/cipher-suites.js';
import { tlsVersionRange } from '../tls/tls-versions.js';
import { minorAtLeast, type MinorVersion } from '../version/minor.js';
import type { TransportSecurity } from './types.js';

/** Protocol settings applied to every TLS connection, client and peer, served and dialled. */
export interface TlsProtocol {
  /** OpenSSL cipher string for TLS ≤ 1.2, or undefined for Node's defaults. */
  readonly ciphers: string | undefined;
  readonly minVersion: SecureVersion;
  readonly maxVersion: SecureVersion | undefined;
}

export interface TlsInputs {
  readonly minor: MinorVersion;
  readonly client: TransportSecurity;
  readonly peer: TransportSecurity;
  readonly listenClientUrls: readonly URL[];
  readonly listenPeerUrls: readonly URL[];
  readonly cipherSuites: readonly string[];
  readonly tlsMinVersion: string;
  readonly tlsMaxVersion: string;
}

export type TlsCheck =
  | { readonly ok: true; readonly protocol: TlsProtocol; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** True when the side has certificate files given (etcd's `!TLSInfo.Empty()`). */
export function hasCertFiles(s: TransportSecurity): boolean {
  return s.certFile !== '' || s.keyFile !== '';
}

export function checkTls(input: TlsInputs): TlsCheck {
  const fail = (message: string): TlsCheck => ({ ok: false, message });
  const warnings: string[] = [];

  const ciphers = opensslCiphers(input.cipherSuites);
  if (!ciphers.ok) return fail(`invalid value ${JSON.stringify(input.cipherSuites.join(','))} for flag --cipher-suites: ${ciphers.message}`);
  const newFlags = minorAtLeast(input.minor, '3.5');
  const range = tlsVersionRange(newFlags ? input.tlsMinVersion : '', newFlags ? input.tlsMaxVersion : '', input.cipherSuites);
  if (!range.ok) return fail(`--${range.flag}: ${range.message}`);

  const client = checkSide(input.client, input.listenClientUrls, 'client', warnings);
  if (client !== undefined) return fail(client);
  const peer = checkSide(input.peer, input.listenPeerUrls, 'peer', warnings);
  if (peer !== undefined) return fail(peer);
  if (input.peer.allowedCn !== '' && input.peer.allowedHostname !== '') {
    return fail(
      `--peer-cert-allowed-cn, --peer-cert-allowed-hostname: AllowedCN and AllowedHostname are mutually exclusive (cn=${JSON.stringify(input.peer.allowedCn)}, hostname=${JSON.stringify(input.peer.allowedHostname)})`,
    );
  }
  return { ok: true, protocol: { ciphers: ciphers.ciphers, minVersion: range.minVersion, maxVersion: range.maxVersion }, warnings };
}

/** The failure message for one side, or undefined; pushes the side's warnings. */
function checkSide(s: TransportSecurity, urls: readonly URL[], side: 'client' | 'peer', warnings: string[]): string | undefined {
  const p = side === 'peer' ? 'peer-' : '';
  const certsGiven = hasCertFiles(s);
  if (s.autoTls && certsGiven) warnings.push(`ignoring ${side} auto TLS since certs given`);
  for (const url of urls) {
    if (url.protocol === 'https:') {
      if (!certsGiven && !s.autoTls) {
        return side === 'client'
          ? `TLS key/cert (--cert-file, --key-file) must be provided for client url ${urlText(url)} with HTTPS scheme`
          : `cannot listen on TLS for ${url.host}: KeyFile and CertFile are not presented (--peer-cert-file, --peer-key-file or --peer-auto-tls)`;
      }
      if (certsGiven && (s.certFile === '' || s.keyFile === '')) {
        return `--${p}cert-file, --${p}key-file: KeyFile and CertFile must both be present[key: ${s.keyFile}, cert: ${s.certFile}]`;
      }
    } else {
      if (certsGiven) warnings.push(`scheme is HTTP while key and cert files are present; ignoring key and cert files (${side} url ${urlText(url)})`);
      if (s.clientCertAuth) warnings.push(`scheme is HTTP while --${p}client-cert-auth is enabled; ignoring client cert auth for this URL (${side} url ${urlText(url)})`);
    }
  }
  return undefined;
}

/** The URL as given (URL.href adds a trailing `/`). */
function urlText(url: URL): string {
  return url.href.endsWith('/') && url.pathname === '/' ? url.href.slice(0, -1) : url.href;
}
