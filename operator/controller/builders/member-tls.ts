/**
 * The TLS parts of a member pod, from spec.tls: the Secret volumes (mounted read-only under
 * /etc/kvstore/tls/{client,peer}, group-readable for the member's uid through fsGroup), and the
 * server flags naming the mounted files:
 * - client: `--cert-file --key-file --trusted-ca-file --client-cert-auth=true`;
 * - peer: `--peer-cert-file --peer-key-file --peer-trusted-ca-file --peer-client-cert-auth=true`.
 * The URL schemes themselves come from names.ts. The operator's own certificate is not mounted:
 * the operator reads that Secret through the API. Pure.
 */
import type { IVolume } from 'kubernetes-models/v1/Volume';
import type { IVolumeMount } from 'kubernetes-models/v1/VolumeMount';
import { TLS_CA_KEY, TLS_CERT_KEY, TLS_KEY_KEY } from '../../api/schema-security.js';
import type { KvstoreCluster } from '../../api/types.js';
import { CLIENT_TLS_VOLUME, PEER_TLS_VOLUME, TLS_MOUNT_ROOT } from './names.js';

/** Owner and group may read, nobody else (0440). */
const SECRET_MODE = 0o440;

interface Listener {
  readonly volume: string;
  readonly dir: string;
  readonly secretName: string;
  /** Flag prefix: '' (client) or 'peer-'. */
  readonly prefix: '' | 'peer-';
}

function listeners(cluster: KvstoreCluster): Listener[] {
  const tls = cluster.spec.tls;
  const out: Listener[] = [];
  if (tls?.client !== undefined) out.push({ volume: CLIENT_TLS_VOLUME, dir: `${TLS_MOUNT_ROOT}/client`, secretName: tls.client.secretName ?? '', prefix: '' });
  if (tls?.peer !== undefined) out.push({ volume: PEER_TLS_VOLUME, dir: `${TLS_MOUNT_ROOT}/peer`, secretName: tls.peer.secretName ?? '', prefix: 'peer-' });
  return out;
}

/** The certificate flags of the secured listeners (none without spec.tls). */
export function tlsFlags(cluster: KvstoreCluster): string[] {
  return listeners(cluster).flatMap((l) => [
    `--${l.prefix}cert-file=${l.dir}/${TLS_CERT_KEY}`,
    `--${l.prefix}key-file=${l.dir}/${TLS_KEY_KEY}`,
    `--${l.prefix}trusted-ca-file=${l.dir}/${TLS_CA_KEY}`,
    `--${l.prefix}client-cert-auth=true`,
  ]);
}

export function tlsVolumes(cluster: KvstoreCluster): IVolume[] {
  return listeners(cluster).map((l) => ({ name: l.volume, secret: { secretName: l.secretName, defaultMode: SECRET_MODE } }));
}

export function tlsVolumeMounts(cluster: KvstoreCluster): IVolumeMount[] {
  return listeners(cluster).map((l) => ({ name: l.volume, mountPath: l.dir, readOnly: true }));
}
