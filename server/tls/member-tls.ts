/**
 * Builds a member's TLS from its configuration, before any listener opens: the client side
 * (served on https client URLs) and the peer side (served on https peer URLs, and used to dial
 * other members' https peer URLs), each with its certificate files loaded once to fail fast.
 *
 * - `--auto-tls` / `--peer-auto-tls` without certificate files: a self-signed certificate in
 *   `<data-dir>/fixtures/{client,peer}` (auto-tls.ts); dials with it do not verify the remote
 *   (as etcd: self-signed certificates cannot be);
 * - a client certificate is required when `--client-cert-auth` (peer: `--peer-client-cert-auth`)
 *   is set or a trusted CA file is given (etcd's `RequireAndVerifyClientCert`);
 * - peer client certificates must name the remote address in their SANs (IP, or a DNS name
 *   resolving to it) unless `--experimental-peer-skip-client-san-verification`;
 * - the peer side dials with `--peer-client-cert-file`/`--peer-client-key-file` when given (3.5),
 *   else with the peer certificate.
 * Errors: `TlsLoadError` naming the flag of the unreadable or unusable file.
 */
import { lookup } from 'node:dns/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { hasCertFiles } from '../config/tls-config.js';
import type { ServerConfig, TransportSecurity } from '../config/types.js';
import type { PeerTls } from '../peer/types.js';
import type { ClientTls } from '../transport/client-listener.js';
import { selfCert } from './auto-tls.js';
import { createTlsSource, type TlsFlagNames, type TlsSource } from './tls-source.js';

export interface MemberTls {
  /** Set when a client URL or a metrics URL is https. */
  readonly client: ClientTls | undefined;
  /** Set when the member has peer certificates (given or auto). */
  readonly peer: PeerTls | undefined;
}

const flagsOf = (p: '' | 'peer-'): TlsFlagNames => ({
  certFile: `--${p}cert-file`,
  keyFile: `--${p}key-file`,
  trustedCaFile: `--${p}trusted-ca-file`,
  crlFile: p === '' ? '--client-crl-file' : '--peer-crl-file',
});

export async function prepareMemberTls(config: ServerConfig, logger: Logger, now: () => Date = () => new Date()): Promise<MemberTls> {
  const log = logger.child({ component: 'tls' });

  /** The side's source, or undefined when it has neither files nor auto TLS. */
  const sourceOf = async (s: TransportSecurity, side: 'client' | 'peer', urls: readonly URL[]): Promise<{ source: TlsSource; auto: boolean } | undefined> => {
    let certFile = s.certFile;
    let keyFile = s.keyFile;
    const auto = !hasCertFiles(s) && s.autoTls;
    if (!hasCertFiles(s) && !s.autoTls) return undefined;
    if (auto) {
      const made = await selfCert(join(config.dataDir, 'fixtures', side), urls.map((u) => u.hostname), config.selfSignedCertValidityYears, now());
      log.info({ side, 'cert-file': made.certFile, generated: made.generated }, 'using a self-signed certificate (auto TLS)');
      certFile = made.certFile;
      keyFile = made.keyFile;
    }
    const source = createTlsSource({
      files: { certFile, keyFile, trustedCaFile: s.trustedCaFile, crlFile: s.crlFile },
      flags: flagsOf(side === 'peer' ? 'peer-' : ''),
      protocol: config.tlsProtocol,
      skipVerify: auto,
      logger: log,
    });
    await source.load();
    log.info({ side, 'cert-file': certFile, 'key-file': keyFile, 'trusted-ca': s.trustedCaFile, 'client-cert-auth': s.clientCertAuth, 'crl-file': s.crlFile }, `starting with ${side} TLS`);
    return { source, auto };
  };

  const clientSecurity = config.clientTransportSecurity;
  // The --listen-metrics-urls listeners serve https with the client certificate too.
  const clientSideUrls = [...config.listenClientUrls, ...config.listenMetricsUrls];
  const clientNeeded = clientSideUrls.some((u) => u.protocol === 'https:');
  const client = clientNeeded ? await sourceOf(clientSecurity, 'client', clientSideUrls) : undefined;

  const peerSecurity = config.peerTransportSecurity;
  const peer = await sourceOf(peerSecurity, 'peer', config.listenPeerUrls);
  let dialSource = peer?.source;
  if (peer !== undefined && peerSecurity.clientCertFile !== '' && peerSecurity.clientKeyFile !== '') {
    dialSource = createTlsSource({
      files: { certFile: peerSecurity.clientCertFile, keyFile: peerSecurity.clientKeyFile, trustedCaFile: peerSecurity.trustedCaFile, crlFile: '' },
      flags: { ...flagsOf('peer-'), certFile: '--peer-client-cert-file', keyFile: '--peer-client-key-file' },
      protocol: config.tlsProtocol,
      skipVerify: peer.auto,
      logger: log,
    });
    await dialSource.load();
  }

  return {
    client: client === undefined ? undefined : { source: client.source, requireClientCert: requiresClientCert(clientSecurity) },
    peer:
      peer === undefined || dialSource === undefined
        ? undefined
        : {
            accept: {
              source: peer.source,
              requireClientCert: requiresClientCert(peerSecurity),
              allowedCn: peerSecurity.allowedCn,
              allowedHostname: peerSecurity.allowedHostname,
              checkClientSan: config.peerSkipClientSanVerification ? undefined : { resolve: resolveAll },
            },
            dial: dialSource.clientOptions,
          },
  };
}

/** Every address of a name (the peer client SAN check). */
async function resolveAll(name: string): Promise<readonly string[]> {
  return (await lookup(name, { all: true })).map((a) => a.address);
}

/** etcd's `ServerConfig`: a verified client certificate is required with client-cert-auth or a trusted CA. */
function requiresClientCert(s: TransportSecurity): boolean {
  return s.clientCertAuth || s.trustedCaFile !== '';
}
