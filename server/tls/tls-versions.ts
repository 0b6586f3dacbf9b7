/**
 * `--tls-min-version` / `--tls-max-version` (3.5): etcd's names → Node's `SecureVersion`. Pure.
 * '' means the default: TLS 1.2 as the minimum (etcd's), the highest supported as the maximum.
 */
import type { SecureVersion } from 'node:tls';

const VERSIONS: Readonly<Record<string, SecureVersion>> = { 'TLS1.2': 'TLSv1.2', 'TLS1.3': 'TLSv1.3' };

export type TlsVersionRange =
  | { readonly ok: true; readonly minVersion: SecureVersion; readonly maxVersion: SecureVersion | undefined }
  | { readonly ok: false; readonly flag: 'tls-min-version' | 'tls-max-version' | 'cipher-suites'; readonly message: string };

export function tlsVersionRange(min: string, max: string, cipherSuites: readonly string[]): TlsVersionRange {
  for (const [flag, v] of [['tls-min-version', min], ['tls-max-version', max]] as const) {
    if (v !== '' && VERSIONS[v] === undefined) return { ok: false, flag, message: `unexpected TLS version ${JSON.stringify(v)} (must be one of: TLS1.2, TLS1.3)` };
  }
  const minVersion = VERSIONS[min] ?? 'TLSv1.2';
  const maxVersion = max === '' ? undefined : VERSIONS[max];
  if (maxVersion !== undefined && minVersion > maxVersion) return { ok: false, flag: 'tls-min-version', message: `min version (${min}) is greater than max version (${max})` };
  if (minVersion === 'TLSv1.3' && cipherSuites.length > 0) return { ok: false, flag: 'cipher-suites', message: 'cipher suites cannot be configured when only TLS1.3 is enabled' };
  return { ok: true, minVersion, maxVersion };
}
