/**
 * Differential: etcdctl 3.4 key-value sequences (put, get variants, del, txn, compaction) give
 * the same masked output against real etcd 3.4 and against kvstore (DIFF_SUBJECT=etcd compares
 * etcd with etcd, to check the harness).
 */
import { differentialSuite, type DiffCase } from '../support/processes.js';

const seed = [
  ['put', 'a', '1'],
  ['put', 'b', '2'],
  ['put', 'c', '3'],
  ['put', 'a', '4'],
  ['put', 'd/x', '5'],
  ['put', 'd/y', '6'],
];

const CASES: readonly DiffCase[] = [
  {
    name: 'put and get: simple, prev-kv, missing key, print-value-only, json, fields',
    steps: [
      ...seed,
      ['put', 'a', '7', '--prev-kv'],
      ['get', 'a'],
      ['get', 'missing'],
      ['get', 'a', '--print-value-only'],
      ['get', 'a', '-w', 'json'],
      ['get', 'a', '-w', 'fields'],
      ['get', 'missing', '-w', 'json'],
    ],
  },
  {
    name: 'get ranges: prefix, from-key, explicit range end, all keys, limit with more/count',
    steps: [
      ...seed,
      ['get', 'd/', '--prefix'],
      ['get', 'b', '--from-key'],
      ['get', 'a', 'c'],
      ['get', '', '--prefix', '--keys-only'],
      ['get', '', '--from-key', '--keys-only'],
      ['get', '', '--prefix', '--limit=2'],
      ['get', '', '--prefix', '--limit=2', '-w', 'json'],
      ['get', '', '--prefix', '--limit=2', '-w', 'fields'],
      ['get', '', '--prefix', '--keys-only', '-w', 'json'],
    ],
  },
  {
    name: 'get sorting: every target and order, with limit',
    steps: [
      ...seed,
      ...['KEY', 'CREATE', 'MODIFY', 'VALUE', 'VERSION'].flatMap((t) => [
        ['get', '', '--prefix', '--keys-only', `--sort-by=${t}`],
        ['get', '', '--prefix', '--keys-only', `--sort-by=${t}`, '--order=DESCEND'],
      ]),
      ['get', '', '--prefix', '--order=DESCEND', '--limit=3'],
      ['get', '', '--prefix', '--sort-by=MODIFY', '--order=DESCEND', '--limit=2', '-w', 'json'],
    ],
  },
  {
    name: 'get --rev: history of a key, before creation, after deletion',
    steps: [
      ...seed,
      ['del', 'a'],
      ['get', 'a', '--rev=1'],
      ['get', 'a', '--rev=2'],
      ['get', 'a', '--rev=5'],
      ['get', 'a', '--rev=7'],
      ['get', 'a', '--rev=8'],
      ['get', '', '--prefix', '--rev=4', '-w', 'json'],
    ],
  },
  {
    name: 'del: one key, prefix with prev-kv, nothing, range, from-key',
    steps: [
      ...seed,
      ['del', 'a'],
      ['del', 'd/', '--prefix', '--prev-kv'],
      ['del', 'nothing'],
      ['del', 'b', 'c', '-w', 'json'],
      ['put', 'x', '1'],
      ['put', 'y', '2'],
      ['del', 'c', '--from-key', '--prev-kv', '-w', 'json'],
      ['get', '', '--prefix'],
    ],
  },
  {
    name: 'txn: success and failure branches, compares on every target, json',
    steps: [
      ...seed,
      { run: ['txn'], input: 'value("a") = "4"\nversion("a") = "2"\n\nput t 1\nget a\ndel b\n\nput f 1\n\n' },
      { run: ['txn'], input: 'value("a") > "9"\n\nput t 2\n\nget a\nput f 2\n\n' },
      { run: ['txn'], input: 'create("a") = "2"\nmod("a") = "5"\n\nget a --rev=2\n\n\n' },
      { run: ['txn', '-w', 'json'], input: 'create("nope") = "0"\n\nput nope 1\nget nope\n\n\n' },
      { run: ['txn', '-w', 'json'], input: 'value("nope") = "2"\n\n\ndel nope\nget d/ --prefix\n\n' },
      { run: ['txn', '-w', 'fields'], input: 'version("a") < "3"\n\nget a\n\n\n' },
      ['get', '', '--prefix', '-w', 'json'],
    ],
  },
  {
    name: 'values from stdin, spaces and unicode; --hex; serializable reads',
    steps: [
      { run: ['put', 'stdin'], input: 'from stdin\nwith a newline' },
      ['put', 'spaces', 'a value with spaces'],
      ['put', 'ünïcødé/ключ', 'значение ✓'],
      ['get', 'stdin'],
      ['get', '', '--prefix', '--hex'],
      ['get', 'spaces', '--hex', '-w', 'fields'],
      ['get', '', '--prefix', '--consistency=s', '--keys-only'],
      ['get', 'ünïcødé/', '--prefix', '-w', 'json'],
    ],
  },
  {
    name: 'compaction: history below is gone, the compacted revision itself is readable',
    steps: [
      ...seed,
      ['compaction', '4'],
      ['get', 'a', '--rev=4'],
      ['get', 'a', '--rev=3'],
      ['compaction', '--physical', '6'],
      ['get', '', '--prefix', '--rev=6'],
      ['get', '', '--prefix', '-w', 'json'],
    ],
  },
];

differentialSuite('etcdctl kv', CASES);
