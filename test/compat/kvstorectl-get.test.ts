/**
 * kvstorectl vs etcdctl 3.4: get — every output format (byte for byte on one state, protobuf
 * included), ranges, prefix, from-key, limits, sorting, consistency, and argument errors — on
 * the same etcd 3.4 server, then against kvstore (harness: ctl-diff.ts).
 */
import { ctlDiffSuite, type CtlCase } from '../unit/ctl/support/ctl-diff.js';

const seed = [
  ['put', 'a', '1'],
  ['put', 'b', '2'],
  ['put', 'c', '3'],
  ['put', 'a', '4'],
  ['put', 'd/x', '5'],
  ['put', 'd/y', '6'],
];

const CASES: readonly CtlCase[] = [
  {
    name: 'get: every output format on one state (same revisions)',
    setup: [...seed, ['put', 'x y', 'multi\nline'], ['put', 'bin', '\u00e9\u0001']],
    readOnly: true,
    steps: [
      ['get', 'a'],
      ['get', 'a', '-w', 'json'],
      ['get', 'a', '-w', 'fields'],
      { run: ['get', 'a', '-w', 'protobuf'], binary: true },
      { run: ['get', '', '--prefix', '-w', 'protobuf'], binary: true },
      ['get', 'a', '-w', 'table'],
      ['get', 'x y', '--hex'],
      ['get', 'x y', '--hex', '-w', 'fields'],
      ['get', 'bin', '-w', 'fields'],
      ['get', '', '--prefix', '--hex', '--print-value-only'],
      ['get', 'missing'],
      ['get', 'missing', '-w', 'json'],
      ['get', 'a', '--print-value-only'],
      ['get', 'a', '--print-value-only', '-w', 'json'],
      ['get', 'a', '-w', 'xml'],
    ],
  },
  {
    name: 'get: ranges, prefix, from-key, limit, sorting',
    setup: seed,
    readOnly: true,
    steps: [
      ['get', 'd/', '--prefix'],
      ['get', 'b', '--from-key'],
      ['get', 'a', 'c'],
      ['get', 'a', 'c', 'ignored'],
      ['get', '', '--prefix', '--keys-only'],
      ['get', '', '--from-key', '--keys-only', '-w', 'json'],
      ['get', '', '--prefix', '--limit=2', '-w', 'json'],
      ['get', '', '--prefix', '--limit=2', '-w', 'fields'],
      ...['KEY', 'CREATE', 'MODIFY', 'VALUE', 'VERSION'].flatMap((t) => [
        ['get', '', '--prefix', '--keys-only', `--sort-by=${t}`],
        ['get', '', '--prefix', '--keys-only', `--sort-by=${t.toLowerCase()}`, '--order=DESCEND'],
      ]),
      ['get', '', '--prefix', '--order=ASCEND', '--limit=1'],
      ['get', 'a', '--consistency=s'],
    ],
  },
  {
    name: 'get: argument errors',
    steps: [
      ['get'],
      ['get', 'a', '--prefix', '--from-key'],
      ['get', 'a', 'b', '--prefix'],
      ['get', 'a', '--consistency=x'],
      ['get', 'a', '--order=UP'],
      ['get', 'a', '--sort-by=SIZE'],
      ['get', ''],
    ],
  },
];

ctlDiffSuite('kvstorectl get', CASES);
