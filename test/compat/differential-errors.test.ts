/**
 * Differential: every error a single member can produce through etcdctl 3.4 gives the same
 * exit code, stdout and stderr (including etcdctl's log line with the gRPC code and message)
 * against real etcd 3.4 and kvstore, and the member goes on serving after each.
 */
import { differentialSuite, type DiffCase } from '../support/processes.js';

const puts = (n: number) => Array.from({ length: n }, (_, i) => `put many/${i} v\n`).join('');

const CASES: readonly DiffCase[] = [
  {
    name: 'empty keys and missing keys',
    steps: [
      ['put', '', 'v'],
      ['get', ''],
      ['del', ''],
      { run: ['txn'], input: 'value("") = "1"\n\n\n\n' },
      { run: ['txn'], input: '\nput "" v\n\n\n' },
      ['put', 'absent', '--ignore-value'],
      ['put', 'absent', 'v', '--ignore-lease'],
      ['put', 'ok', 'v'],
      ['get', 'ok', '-w', 'json'],
    ],
  },
  {
    name: 'compacted and future revisions',
    steps: [
      ['put', 'h', '1'],
      ['put', 'h', '2'],
      ['put', 'h', '3'],
      ['compaction', '3'],
      ['get', 'h', '--rev=2'],
      ['get', 'h', '--rev=3'],
      ['get', 'h', '--rev=5'],
      ['get', 'h', '--rev=100'],
      ['compaction', '3'],
      ['compaction', '2'],
      ['compaction', '100'],
      { run: ['txn'], input: '\nget h --rev=2\n\n\n' },
      { run: ['txn'], input: '\nget h --rev=100\n\n\n' },
      ['watch', 'h', '--rev=2'],
      ['get', 'h', '-w', 'json'],
    ],
  },
  {
    name: 'unknown leases and TTL limits',
    steps: [
      ['put', 'k', 'v', '--lease=1234abcd'],
      ['lease', 'revoke', '1234abcd'],
      ['lease', 'keep-alive', '--once', '1234abcd'],
      { run: ['txn'], input: '\nput k v --lease=1234abcd\n\n\n' },
      ['lease', 'grant', '9000000001'],
      ['lease', 'grant', '9000000000'],
      ['get', 'k', '-w', 'json'],
    ],
  },
  {
    name: 'txn limits: 128 operations pass, 129 fail; duplicate keys',
    steps: [
      { run: ['txn'], input: `\n${puts(129)}\n\n` },
      { run: ['txn'], input: `${'value("x") = "1"\n'.repeat(129)}\n\n\n` },
      { run: ['txn'], input: `\n${puts(128)}\n\n` },
      { run: ['txn'], input: '\nput dup 1\nput dup 2\n\n\n' },
      { run: ['txn'], input: '\nput dup 1\ndel dup\n\n\n' },
      { run: ['txn'], input: '\nput dup 1\ndel d --prefix\n\n\n' },
      { run: ['txn'], input: '\nput dup 1\n\nput dup 2\n\n' },
      { run: ['txn'], input: '\ndel dup\ndel dup\n\n\n' },
      ['get', 'dup', '-w', 'json'],
    ],
  },
  {
    name: 'request too large at the default limit (1.5 MiB)',
    steps: [
      { run: ['put', 'big'], input: 'x'.repeat(1_600_000) },
      { run: ['put', 'fits'], input: 'x'.repeat(1_000_000) },
      ['get', 'big', '-w', 'json'],
      ['get', 'fits', '--keys-only'],
    ],
  },
  {
    name: 'request too large with --max-request-bytes=8192',
    serverArgs: ['--max-request-bytes=8192'],
    steps: [
      { run: ['put', 'big'], input: 'y'.repeat(16_384) },
      { run: ['put', 'small'], input: 'y'.repeat(4096) },
      { run: ['txn'], input: `\n${Array.from({ length: 4 }, (_, i) => `put t${i} ${'z'.repeat(3000)}\n`).join('')}\n\n` },
      ['get', '', '--prefix', '--keys-only'],
    ],
  },
];

differentialSuite('etcdctl errors', CASES);
