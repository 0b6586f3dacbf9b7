/**
 * Flag table, part 3: TLS (checked by tls-config.ts, served by server/tls), HTTP edge options
 * and auth. In YAML the TLS settings are nested under `client-transport-security` and
 * `peer-transport-security`.
 */
import type { MinorVersion } from '../version/minor.js';
import { BOOL, FlagGroup, LIST, STRING, UINT, type FlagSpec, type Support, type ValueType } from './flag-spec.js';

const G = FlagGroup.Security;
const CLIENT = 'client-transport-security';
const PEER = 'peer-transport-security';

function tls(name: string, type: ValueType, help: string, yaml: readonly string[] | null, since?: MinorVersion, support: Support = 'yes'): FlagSpec {
  const spec: FlagSpec = { name, type, default: type.kind === 'bool' ? 'false' : '', help, group: G, support, yaml };
  return since === undefined ? spec : { ...spec, since };
}

export const SECURITY_FLAGS: readonly FlagSpec[] = [
  tls('cert-file', STRING, 'Path to the client server TLS cert file.', [CLIENT, 'cert-file']),
  tls('key-file', STRING, 'Path to the client server TLS key file.', [CLIENT, 'key-file']),
  tls('client-cert-file', STRING, 'Path to an explicit peer client TLS cert file otherwise cert file will be used when client auth is required.', [CLIENT, 'client-cert-file'], '3.5', 'ignored'),
  tls('client-key-file', STRING, 'Path to an explicit peer client TLS key file otherwise key file will be used when client auth is required.', [CLIENT, 'client-key-file'], '3.5', 'ignored'),
  tls('client-cert-auth', BOOL, 'Enable client cert authentication.', [CLIENT, 'client-cert-auth']),
  tls('client-crl-file', STRING, 'Path to the client certificate revocation list file.', [CLIENT, 'crl-file']),
  tls('client-cert-allowed-hostname', STRING, 'Allowed TLS hostname for client cert authentication.', [CLIENT, 'allowed-hostname']),
  tls('trusted-ca-file', STRING, 'Path to the client server TLS trusted CA cert file.', [CLIENT, 'trusted-ca-file']),
  tls('auto-tls', BOOL, 'Client TLS using generated certificates.', [CLIENT, 'auto-tls']),
  tls('peer-cert-file', STRING, 'Path to the peer server TLS cert file.', [PEER, 'cert-file']),
  tls('peer-key-file', STRING, 'Path to the peer server TLS key file.', [PEER, 'key-file']),
  tls('peer-client-cert-file', STRING, 'Path to an explicit peer client TLS cert file otherwise peer cert file will be used when client auth is required.', [PEER, 'client-cert-file'], '3.5'),
  tls('peer-client-key-file', STRING, 'Path to an explicit peer client TLS key file otherwise peer key file will be used when client auth is required.', [PEER, 'client-key-file'], '3.5'),
  tls('peer-client-cert-auth', BOOL, 'Enable peer client cert authentication.', [PEER, 'client-cert-auth']),
  tls('peer-trusted-ca-file', STRING, 'Path to the peer server TLS trusted CA file.', [PEER, 'trusted-ca-file']),
  tls('peer-auto-tls', BOOL, 'Peer TLS using self-generated certificates if --peer-key-file and --peer-cert-file are not provided.', [PEER, 'auto-tls']),
  tls('peer-cert-allowed-cn', STRING, 'Required CN for client certs connecting to the peer endpoint.', [PEER, 'allowed-cn']),
  tls('peer-cert-allowed-hostname', STRING, 'Allowed TLS hostname for inter peer authentication.', [PEER, 'allowed-hostname']),
  tls('peer-crl-file', STRING, 'Path to the peer certificate revocation list file.', [PEER, 'crl-file']),
  tls('cipher-suites', LIST, 'Comma-separated list of supported TLS cipher suites between client/server and peers (Go names; empty means the defaults).', ['cipher-suites']),
  tls('tls-min-version', STRING, 'Minimum TLS version supported by kvstore.', ['tls-min-version'], '3.5'),
  tls('tls-max-version', STRING, 'Maximum TLS version supported by kvstore.', ['tls-max-version'], '3.5'),
  tls('experimental-peer-skip-client-san-verification', BOOL, 'Skip verification of SAN field in client certificate for peer connections.', ['experimental-peer-skip-client-san-verification']),
  {
    name: 'self-signed-cert-validity', type: UINT, default: '1', group: G, support: 'yes', since: '3.5',
    help: 'The validity period of the client and peer certificates, unit is year.',
  },
  {
    name: 'cors', type: LIST, default: '*', group: G, support: 'yes',
    help: 'Comma-separated white list of origins for CORS, or cross-origin resource sharing, (empty or * means allow all).',
  },
  {
    name: 'host-whitelist', type: LIST, default: '*', group: G, support: 'yes',
    help: 'Acceptable hostnames from HTTP client requests, if server is not secure (empty means allow all).',
  },

  {
    name: 'auth-token', type: STRING, default: 'simple', group: FlagGroup.Auth, support: 'yes',
    help: "Specify auth token specific options. 'simple' or 'jwt,pub-key=…,priv-key=…,sign-method=…[,ttl=…]'.",
  },
  {
    name: 'auth-token-ttl', type: UINT, default: '300', group: FlagGroup.Auth, support: 'yes', since: '3.4',
    help: 'The lifetime in seconds of the auth token.',
  },
  {
    name: 'bcrypt-cost', type: UINT, default: '10', group: FlagGroup.Auth, support: 'yes',
    help: 'Specify bcrypt algorithm cost factor for auth password hashing (4 to 31).',
  },
];
