/**
 * kvstorectl vs etcdctl 3.4: put (prev-kv, ignore-value, stdin, formats, errors), get --rev over
 * history, compaction (compacted and future revisions) and del (ranges, prefix, from-key,
 * prev-kv, errors) — on the same etcd 3.4 server, then against kvstore (harness: ctl-diff.ts).
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

ctlDiffSuite('kvstorectl put, del, compaction', CASES);
