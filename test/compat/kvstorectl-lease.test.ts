/**
 * kvstorectl vs etcdctl 3.4: lease grant, revoke, timetolive, list, keep-alive (once and
 * streaming until revoked) in every output format, and their argument and server errors.
 * Lease ids are masked; remaining TTLs depend on timing and are masked too.
 */
import { ctlDiffSuite, type CtlCase } from '../unit/ctl/support/ctl-diff.js';

const LEASE = { lease: /^lease ([0-9a-f]{16}) granted/ };
const REMAINING: ReadonlyArray<readonly [RegExp, string]> = [
  [/remaining\(\d+s\)/g, 'remaining(<n>s)'],
  [/"ttl":\d+/g, '"ttl":<n>'],
  [/^"TTL" : \d+$/gm, '"TTL" : <n>'],
];

const CASES: readonly CtlCase[] = [
  {
    name: 'grant in every format; timetolive with keys; list; keep-alive --once; revoke',
    steps: [
      { run: ['lease', 'grant', '100'], capture: LEASE },
      ['lease', 'grant', '50', '-w', 'json'],
      ['lease', 'grant', '60', '-w', 'fields'],
      ['lease', 'grant', '60', '-w', 'table'],
      ['put', 'k1', 'v1', '--lease={lease}'],
      { run: ['lease', 'timetolive', '{lease}'], mask: REMAINING },
      { run: ['lease', 'timetolive', '{lease}', '--keys'], mask: REMAINING },
      { run: ['lease', 'timetolive', '{lease}', '--keys', '-w', 'json'], mask: REMAINING },
      { run: ['lease', 'timetolive', '{lease}', '--keys', '-w', 'fields'], mask: REMAINING },
      ['lease', 'keep-alive', '--once', '{lease}'],
      ['lease', 'keep-alive', '--once', '{lease}', '-w', 'json'],
      ['lease', 'list', '-w', 'fields'],
      ['lease', 'revoke', '{lease}'],
      ['get', 'k', '--prefix'],
      ['lease', 'timetolive', '{lease}'],
      ['lease', 'timetolive', '{lease}', '-w', 'json'],
    ],
  },
  {
    name: 'list and the header-only protobuf answers on one state',
    setup: [{ run: ['lease', 'grant', '100'], capture: LEASE }],
    readOnly: true,
    steps: [
      ['lease', 'list'],
      ['lease', 'list', '-w', 'json'],
      { run: ['lease', 'list', '-w', 'protobuf'], binary: true },
      { run: ['lease', 'timetolive', '{lease}', '-w', 'protobuf'], binary: true },
      { run: ['lease', 'timetolive', '{lease}', '-w', 'table'], mask: REMAINING },
    ],
  },
  {
    name: 'keep-alive streams until the lease is revoked',
    setup: [{ run: ['lease', 'grant', '6'], capture: LEASE }],
    steps: [
      { spawn: 'ka', args: ['lease', 'keep-alive', '{lease}'] },
      { await: 'ka', lines: 1 },
      ['lease', 'revoke', '{lease}'],
      { await: 'ka', lines: 3 },
      { stop: 'ka' },
      ['lease', 'keep-alive', '1234abcd'],
    ],
  },
  {
    name: 'unknown leases and argument errors',
    steps: [
      ['lease', 'timetolive', '1234abcd'],
      ['lease', 'timetolive', '1234abcd', '-w', 'fields'],
      ['lease', 'keep-alive', '--once', '1234abcd'],
      ['lease', 'revoke', '1234abcd'],
      ['lease', 'grant', '9000000001'],
      ['lease', 'grant'],
      ['lease', 'grant', 'x'],
      ['lease', 'revoke', 'zz'],
      ['lease', 'revoke'],
      ['lease', 'timetolive'],
      ['lease', 'keep-alive'],
    ],
  },
];

ctlDiffSuite('kvstorectl lease', CASES);
