/**
 * Differential: etcdctl 3.4 watch output (history from --rev, prefixes, ranges, --prev-kv,
 * json) is the same against real etcd 3.4 and kvstore. Every watch starts from an explicit
 * revision so its output does not depend on when it was established; it is stopped once it has
 * printed the expected number of lines. JSON responses may batch events differently, so only
 * simple output is compared here.
 */
import { differentialSuite, type DiffCase } from '../support/processes.js';

const CASES: readonly DiffCase[] = [
  {
    name: 'watch a key from revision 1: history then live events',
    steps: [
      ['put', 'w', '1'],
      ['put', 'w', '2'],
      { spawn: 'w', args: ['watch', 'w', '--rev=1'] },
      ['put', 'w', '3'],
      ['del', 'w'],
      ['put', 'w', '4'],
      { await: 'w', lines: 14 },
      { stop: 'w' },
    ],
  },
  {
    name: 'watch --prefix --prev-kv and a key range',
    steps: [
      ['put', 'p/a', '0'],
      { spawn: 'prefix', args: ['watch', '--prefix', 'p/', '--prev-kv', '--rev=3'] },
      { spawn: 'range', args: ['watch', 'p/a', 'p/c', '--rev=2'] },
      ['put', 'p/a', '1'],
      ['put', 'p/b', '2'],
      ['put', 'p/c', '3'],
      ['put', 'q', 'x'],
      ['del', 'p/', '--prefix'],
      { await: 'prefix', lines: 25 },
      { await: 'range', lines: 15 },
      { stop: 'prefix' },
      { stop: 'range' },
    ],
  },
  {
    name: 'watch from a compacted revision is canceled',
    steps: [
      ['put', 'c', '1'],
      ['put', 'c', '2'],
      ['compaction', '3'],
      ['watch', 'c', '--rev=2'],
      ['watch', 'c', '--rev=1', '--prefix'],
    ],
  },
  {
    name: 'watch a whole transaction: all events of one revision',
    steps: [
      { spawn: 'all', args: ['watch', '', '--prefix', '--rev=2'] },
      { run: ['txn'], input: '\nput t/a 1\nput t/b 2\nput t/c 3\n\n\n' },
      { run: ['txn'], input: '\ndel t/a\nput t/b 4\n\n\n' },
      { await: 'all', lines: 15 },
      { stop: 'all' },
    ],
  },
];

differentialSuite('etcdctl watch', CASES);
