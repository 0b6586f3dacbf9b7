/**
 * The AccessLoader of local mode: with spec.tls.client, the operator's generated client
 * certificate and the local CA (local-certificates.ts); with spec.auth, the root credentials
 * from the Secret manifest `<secretName>.yaml` beside the cluster manifest (a core/v1 Secret:
 * `stringData` or base64 `data`, keys `username` and `password`), read on every pass.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import type { KvstoreCluster } from '../../api/types.js';
import { accessFromSecrets, type SecretData } from '../../controller/access/secret-data.js';
import { portFail, portOk, type AccessLoader, type MemberAccess, type PortResult } from '../../controller/ports.js';
import type { LocalLayout } from './layout.js';
import type { LocalCertificates } from './local-certificates.js';

/** A Secret manifest file (`stringData` or base64 `data`); undefined when the file does not exist. */
export async function readSecretFile(file: string): Promise<PortResult<SecretData | undefined>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return e.code === 'ENOENT' ? portOk(undefined) : portFail(`${file}: ${e.message}`);
  }
  try {
    const doc: unknown = parse(text);
    if (typeof doc !== 'object' || doc === null) return portFail(`${file}: not a Secret manifest`);
    return portOk(doc as SecretData);
  } catch (err) {
    return portFail(`${file}: ${(err as Error).message}`);
  }
}

export function localAccessLoader(layout: LocalLayout, certificates: LocalCertificates): AccessLoader {
  return async (cluster: KvstoreCluster): Promise<PortResult<MemberAccess>> => {
    let access: MemberAccess = {};
    if (cluster.spec.tls?.client !== undefined) {
      const tls = await certificates.operatorAccess();
      if (!tls.ok) return tls;
      access = { tls: tls.value };
    }
    if (cluster.spec.auth !== undefined) {
      // Only the credentials part: the TLS Secrets do not exist in local mode.
      const creds = await accessFromSecrets({ ...cluster, spec: { ...cluster.spec, tls: undefined } } as KvstoreCluster, (name) => readSecretFile(layout.secretFile(name)));
      if (!creds.ok) return portFail(`${creds.error} (local mode reads ${layout.secretFile(cluster.spec.auth.secretName)})`);
      access = { ...access, ...creds.value };
    }
    return portOk(access);
  };
}
