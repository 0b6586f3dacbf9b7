/**
 * The secured-cluster parts of `KvstoreCluster.spec`: `tls` (which listeners use TLS, and the
 * Secrets holding the certificates) and `auth` (the Secret holding the root credentials the
 * operator's admin calls use). Secrets use the `kubernetes.io/tls` layout cert-manager writes:
 * `tls.crt`, `tls.key` and `ca.crt` (the CA that signed the peers' certificates); the auth Secret
 * holds `username` and `password`.
 *
 * Local mode (`kvstore-operator local`) has no Secrets: it generates a CA and the certificates
 * itself, so `secretName` is for Kubernetes only; `auth.secretName` names a Secret manifest file
 * beside the cluster manifest.
 */
import { Type } from 'typebox';

/** Keys of a TLS Secret (cert-manager, `kubernetes.io/tls` plus the CA). */
export const TLS_CERT_KEY = 'tls.crt';
export const TLS_KEY_KEY = 'tls.key';
export const TLS_CA_KEY = 'ca.crt';
/** Keys of the auth Secret. */
export const AUTH_USERNAME_KEY = 'username';
export const AUTH_PASSWORD_KEY = 'password';

const secretName = (what: string) =>
  Type.Optional(Type.String({ minLength: 1, description: `Secret (keys tls.crt, tls.key, ca.crt) with ${what}. Required on Kubernetes; local mode generates its own.` }));

export const TlsListenerSchema = Type.Object(
  { secretName: secretName('the certificate of every member (SANs: *.<name>-peer.<namespace>.svc and the client Service name)') },
  { description: 'TLS with client certificate authentication on this listener.' },
);

/** spec.tls cannot change: the members' URLs and the certificates they trust were set from it. */
export const TLS_IMMUTABLE = 'is immutable: the members were started with these URLs and certificates';

export const TlsSpecSchema = Type.Object(
  {
    client: Type.Optional(TlsListenerSchema),
    peer: Type.Optional(TlsListenerSchema),
    operator: Type.Optional(
      Type.Object(
        { secretName: secretName("the operator's client certificate (signed by the client CA)") },
        { description: 'The client certificate the operator presents to the members (health checks, admin calls, snapshots).' },
      ),
    ),
  },
  {
    description:
      'TLS of the members, fixed at creation. client: https client URLs with --client-cert-auth (the operator then needs operator.secretName); peer: https peer URLs with --peer-client-cert-auth.',
    'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: TLS_IMMUTABLE }],
  },
);

export const AuthSpecSchema = Type.Object(
  {
    secretName: Type.String({ minLength: 1, description: 'Secret with keys username and password: the root user the operator authenticates as.' }),
  },
  { description: 'Credentials for a cluster with auth enabled (the operator does not enable auth itself).' },
);
