/**
 * Differential: etcdctl 3.4 lease sequences give the same masked output against real etcd 3.4
 * and kvstore. Lease ids differ per server and are masked; remaining TTLs depend on timing and
 * are masked too; granted TTLs, revisions and attached keys are compared.
 */
import { differentialSuite, type DiffCase } from '../support/processes.js';

const LEASE = { lease: /^lease ([0-9a-f]{16}) granted/ };
const REMAINING: ReadonlyArray<readonly [RegExp, string]> = [
  [/remaining\(\d+s\)/g, 'remaining(<n>s)'],
  [/"ttl":\d+/g, '"ttl":<n>'],
];

/** etcd lists a lease's keys in map order: sort them in both output formats. */
function sortKeys(stdout: string): string {
  return stdout
    .replace(/attached keys\(\[([^\]]*)\]\)/, (_, keys: string) => `attached keys([${keys.split(' ').sort().join(' ')}])`)
    .replace(/"keys":\[([^\]]*)\]/, (_, keys: string) => `"keys":[${keys.split(',').sort().join(',')}]`);
}

const CASES: readonly DiffCase[] = [
  {
    name: 'grant, attach keys, timetolive, keep-alive --once, revoke',
    steps: [
      { run: ['lease', 'grant', '100'], capture: LEASE },
      ['put', 'k1', 'v1', '--lease={lease}'],
      ['put', 'k2', 'v2', '--lease={lease}'],
      ['get', 'k', '--prefix', '-w', 'json'],
      { run: ['lease', 'timetolive', '{lease}'], mask: REMAINING },
      { run: ['lease', 'timetolive', '{lease}', '--keys'], mask: REMAINING, normalize: sortKeys },
      { run: ['lease', 'timetolive', '{lease}', '--keys', '-w', 'json'], mask: REMAINING, normalize: sortKeys },
      ['lease', 'keep-alive', '--once', '{lease}'],
      ['lease', 'list'],
      ['lease', 'revoke', '{lease}'],
      ['get', 'k', '--prefix'],
      ['get', 'k', '--prefix', '-w', 'json'],
      ['lease', 'timetolive', '{lease}'],
      ['lease', 'list'],
    ],
  },
  {
    name: 'grant output formats and the minimum TTL',
    steps: [
      ['lease', 'grant', '1'],
      ['lease', 'grant', '2'],
      ['lease', 'grant', '3600', '-w', 'json'],
      ['lease', 'grant', '60', '-w', 'fields'],
    ],
  },
  {
    name: 'a put moves a key to another lease; revoking the old lease keeps it',
    steps: [
      { run: ['lease', 'grant', '100'], capture: { l1: /^lease ([0-9a-f]{16}) granted/ } },
      { run: ['lease', 'grant', '100'], capture: { l2: /^lease ([0-9a-f]{16}) granted/ } },
      ['put', 'moved', 'a', '--lease={l1}'],
      ['put', 'moved', 'b', '--lease={l2}'],
      ['lease', 'revoke', '{l1}'],
      ['get', 'moved'],
      ['put', 'moved', 'c', '--ignore-lease'],
      ['lease', 'revoke', '{l2}'],
      ['get', 'moved'],
    ],
  },
  {
    name: 'unknown lease ids',
    steps: [
      ['lease', 'timetolive', '1234abcd'],
      ['lease', 'timetolive', '1234abcd', '-w', 'json'],
      ['lease', 'keep-alive', '--once', '1234abcd'],
      ['lease', 'revoke', '1234abcd'],
      ['put', 'k', 'v', '--lease=1234abcd'],
      ['lease', 'list'],
    ],
  },
];

differentialSuite('etcdctl lease', CASES);
