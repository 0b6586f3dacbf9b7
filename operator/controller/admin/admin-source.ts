/**
 * `AdminSource`: one MemberAdmin per distinct MemberAccess, made on first use by a cluster with
 * that access and kept while some cluster still uses it. A cluster's access is read on every
 * pass (the loader reads its Secrets / files), so a rotated certificate or password is picked up
 * on the next pass: the cluster moves to a new admin and the old one is closed once no cluster
 * uses it. Clusters without spec.tls / spec.auth share one plain admin.
 *
 * Contract: `adminFor` fails (a value) when the loader does; `wrap` decorates each admin made
 * (e.g. the URL resolver of tests); `close()` closes every admin.
 */
import { createHash } from 'node:crypto';
import type { KvstoreCluster } from '../../api/types.js';
import { portOk, type AccessLoader, type AdminSource, type MemberAccess, type MemberAdmin, type PortResult } from '../ports.js';
import { createMemberAdmin, type MemberAdminOptions } from './member-admin.js';

export interface AdminSourceOptions {
  readonly load: AccessLoader;
  readonly admin?: MemberAdminOptions;
  readonly wrap?: (admin: MemberAdmin) => MemberAdmin;
}

/** A digest of the access material (never kept in clear beside the admin). */
function fingerprint(a: MemberAccess): string {
  const h = createHash('sha256');
  for (const part of [a.tls?.ca, a.tls?.cert, a.tls?.key, a.credentials?.username, a.credentials?.password]) {
    h.update(part === undefined ? '\u0000absent' : `\u0000${part.length}:`);
    if (part !== undefined) h.update(part);
  }
  return h.digest('hex');
}

const keyOf = (c: KvstoreCluster): string => `${c.metadata.namespace ?? ''}/${c.metadata.name}`;

export function createAdminSource(o: AdminSourceOptions): AdminSource {
  const admins = new Map<string, MemberAdmin>();
  const used = new Map<string, string>(); // cluster → fingerprint
  const release = (fp: string): void => {
    if ([...used.values()].includes(fp)) return;
    admins.get(fp)?.close();
    admins.delete(fp);
  };
  return {
    async adminFor(cluster: KvstoreCluster): Promise<PortResult<MemberAdmin>> {
      const access = await o.load(cluster);
      if (!access.ok) return access;
      const fp = fingerprint(access.value);
      let admin = admins.get(fp);
      if (admin === undefined) {
        const made = createMemberAdmin(o.admin, access.value);
        admin = o.wrap === undefined ? made : o.wrap(made);
        admins.set(fp, admin);
      }
      const before = used.get(keyOf(cluster));
      used.set(keyOf(cluster), fp);
      if (before !== undefined && before !== fp) release(before);
      return portOk(admin);
    },
    close(): void {
      for (const a of admins.values()) a.close();
      admins.clear();
      used.clear();
    },
  };
}
