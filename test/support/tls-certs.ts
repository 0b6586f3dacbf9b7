/**
 * TLS material for tests, made with the `openssl` command in a fresh temp dir (owned by the
 * registry): a self-signed CA, a server certificate for the given IP addresses (as IP SANs) and
 * a client certificate, both signed by the CA. Files are PEM; keys are unencrypted EC P-256.
 * `issueCertificate` signs more certificates with the same CA (certificate rotation, members'
 * own certificates); `revokeCertificates` writes the CA's CRL revoking the given certificates.
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from './registry.js';

const run = promisify(execFile);

/** Paths of the generated files. */
export interface TlsFiles {
  readonly dir: string;
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
}

async function openssl(dir: string, args: readonly string[]): Promise<void> {
  await run('openssl', [...args], { cwd: dir, timeout: 30_000 });
}

async function ecKey(dir: string, file: string): Promise<void> {
  await openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file]);
}

/**
 * Signs a CSR for `cn` with the CA, with the extensions of `ext` (an extfile section `v3`).
 * Each certificate gets a random serial of its own (no shared serial file: tests sign
 * certificates in one directory concurrently, and openssl's `-CAcreateserial` file is read
 * and rewritten without a lock).
 */
async function signed(dir: string, name: string, cn: string, ext: string): Promise<void> {
  await ecKey(dir, `${name}.key`);
  // An empty `cn` gives a subject without a Common Name.
  await openssl(dir, ['req', '-new', '-key', `${name}.key`, '-subj', cn === '' ? '/O=kvstore test' : `/CN=${cn}`, '-out', `${name}.csr`]);
  writeFileSync(join(dir, `${name}.ext`), `[v3]\n${ext}`);
  await openssl(dir, [
    'x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', `0x${randomBytes(16).toString('hex')}`,
    '-days', '2', '-sha256', '-extfile', `${name}.ext`, '-extensions', 'v3', '-out', `${name}.crt`,
  ]);
}

/** A CA, a server certificate valid for `ips` (and `localhost`), and a client certificate. */
export async function makeTlsFiles(ips: readonly string[]): Promise<TlsFiles> {
  const dir = makeTempDir('tls');
  await ecKey(dir, 'ca.key');
  await openssl(dir, [
    'req', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=kvstore test CA', '-days', '2', '-sha256',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-out', 'ca.crt',
  ]);
  const san = ['DNS:localhost', ...ips.map((ip) => `IP:${ip}`)].join(',');
  await signed(dir, 'server', 'kvstore server', `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=${san}\n`);
  await signed(dir, 'client', 'root', 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n');
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    serverCert: join(dir, 'server.crt'),
    serverKey: join(dir, 'server.key'),
    clientCert: join(dir, 'client.crt'),
    clientKey: join(dir, 'client.key'),
  };
}

/** A further certificate from `files`' CA: serverAuth and clientAuth, valid for `ips` and `dns` (default `localhost`). */
export async function issueCertificate(files: TlsFiles, name: string, cn: string, ips: readonly string[], dns: readonly string[] = ['localhost']): Promise<{ cert: string; key: string }> {
  const san = [...dns.map((d) => `DNS:${d}`), ...ips.map((ip) => `IP:${ip}`)].join(',');
  await signed(files.dir, name, cn, `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=${san}\n`);
  return { cert: join(files.dir, `${name}.crt`), key: join(files.dir, `${name}.key`) };
}

/** Revokes `certs` (files signed by `files`' CA) and writes the CA's CRL; returns the CRL's path. */
export interface CrlOptions {
  /** Write the CRL DER-encoded (etcd's fixtures/revoke.crl is). */
  readonly der?: boolean;
  /** Dates in 2020: long expired (etcd ignores a CRL's dates; OpenSSL's own check would not). */
  readonly expired?: boolean;
}

export async function revokeCertificates(files: TlsFiles, certs: readonly string[], opts: CrlOptions = {}): Promise<string> {
  writeFileSync(join(files.dir, 'index.txt'), '');
  writeFileSync(join(files.dir, 'crlnumber'), '1000\n');
  writeFileSync(
    join(files.dir, 'ca.cnf'),
    '[ca]\ndefault_ca = CA_default\n[CA_default]\ndatabase = index.txt\ncrlnumber = crlnumber\ndefault_md = sha256\ndefault_crl_days = 2\n',
  );
  for (const cert of certs) await openssl(files.dir, ['ca', '-config', 'ca.cnf', '-keyfile', 'ca.key', '-cert', 'ca.crt', '-revoke', cert]);
  const dates = opts.expired === true ? ['-crl_lastupdate', '20200101000000Z', '-crl_nextupdate', '20200102000000Z'] : [];
  await openssl(files.dir, ['ca', '-config', 'ca.cnf', '-keyfile', 'ca.key', '-cert', 'ca.crt', '-gencrl', ...dates, '-out', 'ca.crl']);
  if (opts.der !== true) return join(files.dir, 'ca.crl');
  await openssl(files.dir, ['crl', '-in', 'ca.crl', '-outform', 'DER', '-out', 'ca.der.crl']);
  return join(files.dir, 'ca.der.crl');
}

/**
 * The etcdctl commands (run as root) that make the users of the client-certificate auth tests:
 * `root`, and `alice` with the role `reader` (read on the prefix `a`), then enable auth. Each
 * certificate's CN is one of these names.
 */
export const CN_AUTH_SETUP: readonly (readonly string[])[] = [
  ['user', 'add', 'root:rootpw'],
  ['role', 'add', 'reader'],
  ['role', 'grant-permission', 'reader', 'read', 'a', '--prefix=true'],
  ['user', 'add', 'alice:alicepw'],
  ['user', 'grant-role', 'alice', 'reader'],
  ['auth', 'enable'],
];
