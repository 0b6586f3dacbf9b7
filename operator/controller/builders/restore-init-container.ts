/**
 * The init container of a cluster created from a snapshot (spec.restoreFrom on Kubernetes): same
 * image as the member, run before the member container of every pod. When the template bootstraps
 * a new cluster (`--initial-cluster-state new`) and the data dir does not exist yet, it fetches the
 * snapshot the operator checked from the operator itself (`GET <url>` with the cluster's bearer
 * token, runtime/kube-platform/restore-route.ts), checks that the file's SHA-256 trailer is the
 * expected one, and runs `kvstorectl snapshot restore` into the data dir with the member's name,
 * peer URL, the cluster's `--initial-cluster` and token — the flags the member container starts
 * with, so every member gets the same new cluster id and log. Otherwise (a data dir that exists: a
 * restarted or upgraded pod; a member that joins a running cluster) it does nothing.
 *
 * Why HTTP from the operator rather than a shared claim: the operator's snapshot volume is
 * ReadWriteOnce (mounted by the operator pod only) and member pods run on other nodes; the
 * operator streams exactly the file it validated, only to a holder of the token written in this
 * cluster's StatefulSet, and only files of the cluster's own namespace directory.
 *
 * The script is plain CommonJS for `node -e` (the member image has node but neither curl nor wget).
 */
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { KvstoreCluster } from '../../api/types.js';
import { initialCluster, POD_NAME_ENV } from './member-args.js';
import type { MemberTemplate } from './member-template.js';
import { clusterToken, DATA_DIR, DATA_MOUNT_PATH, DATA_VOLUME, memberPeerURL } from './names.js';

export const RESTORE_CONTAINER_NAME = 'restore';
export const RESTORE_TOKEN_ENV = 'KVSTORE_RESTORE_TOKEN';
export const RESTORE_URL_ENV = 'KVSTORE_RESTORE_URL';
export const RESTORE_SHA256_ENV = 'KVSTORE_RESTORE_SHA256';

/** Where the founding members' data comes from (MemberTemplate.restore). */
export interface TemplateRestore {
  /** The operator's URL serving the checked snapshot of this cluster. */
  readonly url: string;
  readonly sha256: string;
  /** Bearer token the operator checks against the one in this StatefulSet. */
  readonly token: string;
}

/**
 * argv: <dataDir> <initial-cluster-state> <kvstorectl snapshot restore flags…>; env: the URL, the
 * expected SHA-256, the token; `KVSTORECTL_MAIN` (tests) runs that script with node instead of
 * `kvstorectl` from the PATH.
 */
export const RESTORE_SCRIPT = `
const fs = require('node:fs'), cp = require('node:child_process');
const { Readable } = require('node:stream'), { pipeline } = require('node:stream/promises');
const [dir, state, ...flags] = process.argv.slice(1);
const env = process.env;
if (state !== 'new') { console.log('restore: skipped, this member joins a running cluster'); process.exit(0); }
if (fs.existsSync(dir)) { console.log('restore: skipped, ' + dir + ' exists'); process.exit(0); }
const file = dir + '.snapshot';
(async () => {
  const res = await fetch(env.${RESTORE_URL_ENV}, { headers: { authorization: 'Bearer ' + env.${RESTORE_TOKEN_ENV} } });
  if (!res.ok || res.body === null) throw new Error('GET ' + env.${RESTORE_URL_ENV} + ': HTTP ' + res.status + ' ' + (await res.text()));
  await pipeline(Readable.fromWeb(res.body), fs.createWriteStream(file, { mode: 0o600 }));
  const size = fs.statSync(file).size, trailer = Buffer.alloc(32), fd = fs.openSync(file, 'r');
  fs.readSync(fd, trailer, 0, 32, Math.max(0, size - 32)); fs.closeSync(fd);
  if (trailer.toString('hex') !== env.${RESTORE_SHA256_ENV}) throw new Error('snapshot SHA-256 trailer ' + trailer.toString('hex') + ', expected ' + env.${RESTORE_SHA256_ENV});
  const cmd = env.KVSTORECTL_MAIN ? [process.execPath, env.KVSTORECTL_MAIN] : ['kvstorectl'];
  const r = cp.spawnSync(cmd[0], [...cmd.slice(1), 'snapshot', 'restore', file, '--data-dir', dir, ...flags], { stdio: 'inherit' });
  fs.rmSync(file, { force: true });
  if (r.status !== 0) throw new Error('kvstorectl snapshot restore exited ' + (r.status ?? r.signal));
  console.log('restore: ' + dir + ' restored from ' + env.${RESTORE_URL_ENV});
})().catch((err) => { fs.rmSync(file, { force: true }); console.error('restore: ' + err.message + (err.cause ? ' (' + (err.cause.message || err.cause) + ')' : '')); process.exit(1); });
`;

const SELF = `$(${POD_NAME_ENV})`;

/** The args after `node -e <script> --`. */
export function restoreArgs(cluster: KvstoreCluster, template: MemberTemplate): string[] {
  return [
    DATA_DIR,
    template.initialClusterState ?? 'new',
    '--name',
    SELF,
    '--initial-cluster',
    initialCluster(cluster, template.members),
    '--initial-cluster-token',
    clusterToken(cluster),
    '--initial-advertise-peer-urls',
    memberPeerURL(cluster, SELF),
  ];
}

export function buildRestoreInitContainer(cluster: KvstoreCluster, template: MemberTemplate): IContainer | undefined {
  const r = template.restore;
  if (r === undefined) return undefined;
  return {
    name: RESTORE_CONTAINER_NAME,
    image: `${cluster.spec.image}:${template.version}`,
    imagePullPolicy: 'IfNotPresent',
    command: ['node', '-e', RESTORE_SCRIPT, '--'],
    args: restoreArgs(cluster, template),
    env: [
      { name: POD_NAME_ENV, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: RESTORE_URL_ENV, value: r.url },
      { name: RESTORE_SHA256_ENV, value: r.sha256 },
      { name: RESTORE_TOKEN_ENV, value: r.token },
    ],
    volumeMounts: [
      { name: DATA_VOLUME, mountPath: DATA_MOUNT_PATH },
      { name: 'tmp', mountPath: '/tmp' },
    ],
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
  };
}

/** What a stored pod template's init container says about the restore (kept across template changes). */
export function storedRestore(initContainers: readonly IContainer[] | undefined): TemplateRestore | undefined {
  const c = initContainers?.find((x) => x.name === RESTORE_CONTAINER_NAME);
  const env = (n: string): string | undefined => c?.env?.find((e) => e.name === n)?.value;
  const url = env(RESTORE_URL_ENV);
  const sha256 = env(RESTORE_SHA256_ENV);
  const token = env(RESTORE_TOKEN_ENV);
  return url === undefined || sha256 === undefined || token === undefined ? undefined : { url, sha256, token };
}
