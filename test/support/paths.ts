/**
 * Where the binaries under test live.
 *
 * The compiled tests sit in `<build>/test/…` and the compiled server in `<build>/server/main.js`
 * (`<build>` is `dist/` or any other `--outDir`), so the server is found relative to this file.
 * Environment overrides: KVSTORE_BIN (path of kvstore's main.js), ETCD_BIN, ETCDCTL_BIN.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The build output directory that holds this compiled file (`dist/` or another outDir). */
export const BUILD_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** kvstore's compiled entry point, run with the current `node`. */
export const KVSTORE_MAIN = process.env.KVSTORE_BIN ?? join(BUILD_ROOT, 'server', 'main.js');

/** The reference etcd 3.4 server. */
export const ETCD_BIN = process.env.ETCD_BIN ?? '/usr/bin/etcd';

/** The reference etcdctl 3.4. */
export const ETCDCTL_BIN = process.env.ETCDCTL_BIN ?? '/usr/bin/etcdctl';
