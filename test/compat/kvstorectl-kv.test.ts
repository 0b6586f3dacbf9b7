/**
 * kvstorectl vs etcdctl 3.4: put, get (ranges, sorting, limits, revisions, hex, every output
 * format), del and compaction — the same invocations on the same etcd 3.4 server give the same
 * masked output, and kvstorectl against kvstore gives it again (harness: ctl-diff.ts).
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
    name: 'put: simple, prev-kv, ignore-value, from stdin, every format',
    steps: [
      ['put', 'a', '1'],
      ['put', 'a', '2', '--prev-kv'],
      ['put', 'a', '--ignore-value', '--prev-kv'],
      { run: ['put', 'stdin'], input: 'from stdin' },
      ['put', 'a', '3', '--prev-kv', '-w', 'json'],
      ['put', 'a', '4', '--prev-kv', '-w', 'fields'],
      ['put', 'x y', 'multi\nline', '-w', 'json'],
      ['put', 'a', '5', '-w', 'table'],
      ['get', '', '--prefix'],
    ],
  },
  {
    name: 'put: argument and server errors',
    steps: [['put'], ['put', 'only-key'], ['put', 'k', '--lease=zz'], ['put', '', 'v'], ['put', 'absent', '--ignore-value'], ['put', 'k', 'v', '--lease=1234abcd'], ['put', 'k', 'v', 'extra']],
  },
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
  {
    name: 'get --rev: history, compaction, compacted and future revisions',
    setup: [
      ['put', 'h', 'v1'],
      ['put', 'h', 'v2'],
      { run: ['get', 'h', '-w', 'json'], capture: { create: /"create_revision":(\d+)/, mod: /"mod_revision":(\d+)/ } },
    ],
    steps: [
      ['get', 'h', '--rev={create}'],
      ['del', 'h'],
      ['get', 'h', '--rev={mod}', '-w', 'json'],
      ['get', 'h', '--rev=100000'],
      ['compaction', '{mod}'],
      ['get', 'h', '--rev={create}'],
      ['compaction', '{create}'],
      ['compaction', '--physical', '100000'],
      ['compaction', 'x'],
      ['compaction'],
    ],
  },
  {
    name: 'del: one key, prefix, range, from-key, prev-kv, formats, errors',
    setup: seed,
    steps: [
      ['del', 'a'],
      ['del', 'd/', '--prefix', '--prev-kv'],
      ['del', 'nothing'],
      ['del', 'b', 'c', '-w', 'json'],
      ['put', 'x', '1'],
      ['del', 'c', '--from-key', '--prev-kv', '-w', 'fields'],
      ['del'],
      ['del', 'a', 'b', 'c'],
      ['del', 'a', '--prefix', '--from-key'],
      ['del', 'a', 'b', '--prefix'],
      ['get', '', '--prefix'],
    ],
  },
];

ctlDiffSuite('kvstorectl kv', CASES);
