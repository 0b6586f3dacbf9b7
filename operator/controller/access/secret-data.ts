/**
 * The MemberAccess of a cluster from Secret-shaped data (`{ data: base64 }` as the API server
 * returns it, or `{ stringData }` as a manifest may hold it): the operator's client certificate
 * (`tls.crt`, `tls.key`), the CA its members' certificates are checked against (`ca.crt` of the
 * client listener's Secret: the issuer of the member certificates, which the members also trust
 * for client certificates), and the root credentials (`username`, `password`). Pure; the readers
 * (Kubernetes API, files) pass in a `read(name)` that finds a Secret by name.
 *
 * Contract: a missing Secret or key is a failure naming the Secret, the key and what it is for.
 */
import { AUTH_PASSWORD_KEY, AUTH_USERNAME_KEY, TLS_CA_KEY, TLS_CERT_KEY, TLS_KEY_KEY } from '../../api/schema-security.js';
import type { KvstoreCluster } from '../../api/types.js';
import { portFail, portOk, type MemberAccess, type PortResult } from '../ports.js';

/** A Secret's contents as read. */
export interface SecretData {
  readonly data?: Readonly<Record<string, string>>;
  readonly stringData?: Readonly<Record<string, string>>;
}

/** Finds a Secret by name (a failure when it cannot be read; undefined when it does not exist). */
export type SecretReader = (name: string) => Promise<PortResult<SecretData | undefined>>;

function keyOf(secret: SecretData, key: string): Buffer | undefined {
  const text = secret.stringData?.[key];
  if (text !== undefined) return Buffer.from(text, 'utf8');
  const b64 = secret.data?.[key];
  return b64 === undefined ? undefined : Buffer.from(b64, 'base64');
}

async function keysOf(read: SecretReader, name: string, keys: readonly string[], purpose: string): Promise<PortResult<Buffer[]>> {
  const got = await read(name);
  if (!got.ok) return portFail(`Secret ${name} (${purpose}): ${got.error}`);
  if (got.value === undefined) return portFail(`Secret ${name} (${purpose}) not found`);
  const out: Buffer[] = [];
  for (const k of keys) {
    const v = keyOf(got.value, k);
    if (v === undefined || v.length === 0) return portFail(`Secret ${name} (${purpose}) has no key ${k}`);
    out.push(v);
  }
  return portOk(out);
}

/** The access spec.tls.operator / spec.tls.client / spec.auth of `cluster` name. */
export async function accessFromSecrets(cluster: KvstoreCluster, read: SecretReader): Promise<PortResult<MemberAccess>> {
  const tls = cluster.spec.tls;
  let access: MemberAccess = {};
  if (tls?.client !== undefined) {
    const opName = tls.operator?.secretName;
    const clientName = tls.client.secretName;
    if (opName === undefined || clientName === undefined) return portFail('spec.tls.client needs spec.tls.client.secretName and spec.tls.operator.secretName');
    const own = await keysOf(read, opName, [TLS_CERT_KEY, TLS_KEY_KEY], "the operator's client certificate");
    if (!own.ok) return own;
    const ca = await keysOf(read, clientName, [TLS_CA_KEY], 'the CA of the member certificates');
    if (!ca.ok) return ca;
    const [cert, key] = own.value as [Buffer, Buffer];
    access = { tls: { ca: ca.value[0] as Buffer, cert, key } };
  }
  const authName = cluster.spec.auth?.secretName;
  if (authName !== undefined) {
    const creds = await keysOf(read, authName, [AUTH_USERNAME_KEY, AUTH_PASSWORD_KEY], 'the root credentials');
    if (!creds.ok) return creds;
    const [user, password] = creds.value as [Buffer, Buffer];
    access = { ...access, credentials: { username: user.toString('utf8'), password: password.toString('utf8') } };
  }
  return portOk(access);
}
