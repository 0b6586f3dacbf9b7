/**
 * `--auto-tls` / `--peer-auto-tls`: a self-signed certificate in `<data-dir>/fixtures/client` or
 * `<data-dir>/fixtures/peer` (`cert.pem`, `key.pem`), as etcd makes it: kept and reused when both
 * files already exist; otherwise a new ECDSA P-521 key and a certificate with organization
 * `etcd`, valid for `validityYears` × 365 days, serverAuth (and clientAuth: peers present it when
 * dialling), with the listener hosts as IP or DNS subject alternative names.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';

export interface SelfCert {
  readonly certFile: string;
  readonly keyFile: string;
  /** False when existing files were reused. */
  readonly generated: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** `hosts`: the listener URLs' hostnames (`127.0.0.1`, `[::1]`, `localhost`). */
export async function selfCert(dir: string, hosts: readonly string[], validityYears: number, now: Date): Promise<SelfCert> {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) return { certFile, keyFile, generated: false };
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const altNames = [...new Set(hosts.map((h) => h.replace(/^\[|\]$/g, '')))].map((h) => (isIP(h) !== 0 ? { type: 7 as const, ip: h } : { type: 2 as const, value: h }));
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'organizationName', value: 'etcd' }], {
    keyType: 'ec',
    curve: 'P-521',
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + Math.max(1, validityYears) * 365 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  await writeFile(certFile, pems.cert, { mode: 0o644 });
  await writeFile(keyFile, pems.private, { mode: 0o600 });
  return { certFile, keyFile, generated: true };
}
