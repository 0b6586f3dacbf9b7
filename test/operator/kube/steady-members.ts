/**
 * A `MemberAdmin` for operator tests whose pods run no process (FakePodRunner): the members of
 * one cluster `<name>` of `size` members in `namespace`, reached at their pod DNS names, all
 * healthy at `version`, member 0 the leader, every member voting. Membership changes and
 * snapshots are refused (a test using it expects a cluster that stays as it is).
 */
import { portFail, portOk, type MemberAdmin, type PortResult } from '../../../operator/controller/ports.js';

export function steadyMembers(name: string, namespace: string, size: number, version: string): MemberAdmin {
  const ordinal = (url: string): number => Number(new RegExp(`^https?://${name}-(\\d+)\\.`).exec(url)?.[1] ?? -1);
  const id = (i: number): string => (i + 1).toString(16).padStart(16, '0');
  const ok = <T>(v: T): Promise<PortResult<T>> => Promise.resolve(portOk(v));
  const known = <T>(url: string, v: () => T): Promise<PortResult<T>> => {
    const i = ordinal(url);
    return Promise.resolve(i >= 0 && i < size ? portOk(v()) : portFail(`${url}: no such member`));
  };
  const refused = <T>(what: string): Promise<PortResult<T>> => Promise.resolve(portFail(`${what}: not expected of a steady cluster`));
  return {
    version: (url) => known(url, () => ({ server: version, cluster: version })),
    health: (url) => known(url, () => true),
    metrics: (url) => known(url, () => ({ isLeader: ordinal(url) === 0, v2StoreBytes: 0 })),
    status: (url) => known(url, () => ({ memberId: id(ordinal(url)), leaderId: id(0), revision: 100, raftIndex: 100, isLearner: false, version })),
    alarms: (url) => known<readonly string[]>(url, () => []),
    linearizableRead: (url) => known(url, () => undefined),
    authEnabled: (url) => known(url, () => false),
    memberList: () =>
      ok(Array.from({ length: size }, (_, i) => ({ id: id(i), name: `${name}-${i}`, peerURLs: [`http://${name}-${i}.${name}-peer.${namespace}.svc:2380`], isLearner: false }))),
    addLearner: () => refused('addLearner'),
    promote: () => refused('promote'),
    remove: () => refused('remove'),
    snapshot: () => refused('snapshot'),
    keyCount: () => refused('keyCount'),
    close: () => undefined,
  };
}
