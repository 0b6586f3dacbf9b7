/**
 * How the operator reaches a member at the URL the cluster advertises for it
 * (`http://<pod>.<name>-peer.<ns>.svc:2379`). In a cluster the name resolves through DNS, so
 * the resolver is the identity; a test maps pod DNS names to the local address each pod process
 * listens on. `resolvingAdmin` puts a resolver in front of every call of a `MemberAdmin` that
 * is addressed by a client URL; peer URLs passed as data (AddLearner) are left as they are,
 * since members resolve them themselves.
 *
 * Contract: a resolver never throws; a URL it does not know is returned unchanged.
 */
import type { MemberAdmin } from '../../controller/ports.js';

/** Maps an advertised member URL to the URL this process dials. */
export type UrlResolver = (url: string) => Promise<string>;

/** Production: dial what the cluster advertises. */
export const identityResolver: UrlResolver = (url) => Promise.resolve(url);

/** `admin` with every client URL passed through `resolve` first. */
export function resolvingAdmin(admin: MemberAdmin, resolve: UrlResolver): MemberAdmin {
  return {
    version: async (url, signal) => admin.version(await resolve(url), signal),
    health: async (url, signal) => admin.health(await resolve(url), signal),
    metrics: async (url, signal) => admin.metrics(await resolve(url), signal),
    status: async (url, signal) => admin.status(await resolve(url), signal),
    alarms: async (url, signal) => admin.alarms(await resolve(url), signal),
    linearizableRead: async (url, signal) => admin.linearizableRead(await resolve(url), signal),
    authEnabled: async (url, signal) => admin.authEnabled(await resolve(url), signal),
    memberList: async (url, signal) => admin.memberList(await resolve(url), signal),
    addLearner: async (url, peerURL) => admin.addLearner(await resolve(url), peerURL),
    promote: async (url, id) => admin.promote(await resolve(url), id),
    remove: async (url, id) => admin.remove(await resolve(url), id),
    snapshot: async (url, file, signal) => admin.snapshot(await resolve(url), file, signal),
    keyCount: async (url, signal) => admin.keyCount(await resolve(url), signal),
    close: () => admin.close(),
  };
}
