/**
 * Differential: etcdctl 3.4 lock and elect (recipes on txn, leases, sorted ranges, watch) print
 * the same masked output against real etcd 3.4 and kvstore, including the revision a lock was
 * acquired at and the hand-over between holders.
 */
import { differentialSuite, type DiffCase, type MaskOptions } from '../support/processes.js';

/** Recipe keys end in the session lease id printed with %x (no zero padding). */
const RECIPE_KEYS: MaskOptions = { extra: [[/\b([LE])\/[0-9a-f]{1,16}\b/g, '$1/<id>']] };

const CASES: readonly DiffCase[] = [
  {
    name: 'lock with a command, twice; keys are gone afterwards',
    mask: RECIPE_KEYS,
    steps: [
      ['put', 'x', '1'],
      ['lock', 'L', '--', 'sh', '-c', 'echo "$ETCD_LOCK_KEY $ETCD_LOCK_REV"'],
      ['lock', 'L', '--', 'sh', '-c', 'echo "$ETCD_LOCK_KEY $ETCD_LOCK_REV"'],
      ['get', 'L', '--prefix'],
    ],
  },
  {
    name: 'lock held, released on interrupt',
    mask: RECIPE_KEYS,
    steps: [
      { spawn: 'a', args: ['lock', 'L'] },
      { await: 'a', lines: 2 },
      ['get', 'L', '--prefix', '--keys-only', '-w', 'fields'],
      { stop: 'a' },
      ['get', 'L', '--prefix'],
    ],
  },
  {
    name: 'elect: leader, observer, resign',
    mask: RECIPE_KEYS,
    steps: [
      { spawn: 'c1', args: ['elect', 'E', 'p1'] },
      { await: 'c1', lines: 2 },
      { spawn: 'obs', args: ['elect', '-l', 'E'] },
      { await: 'obs', lines: 2 },
      ['get', 'E', '--prefix', '-w', 'fields'],
      { stop: 'c1' },
      { spawn: 'c2', args: ['elect', 'E', 'p2'] },
      { await: 'c2', lines: 2 },
      { await: 'obs', lines: 4 },
      { stop: 'c2' },
      { stop: 'obs' },
      ['get', 'E', '--prefix'],
    ],
  },
];

differentialSuite('etcdctl lock and elect', CASES);
