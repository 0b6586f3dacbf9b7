/**
 * Differential: membership commands a single member can answer — errors for unknown members,
 * a learner added and listed, the learner limit, promote refusals, move-leader to a stranger —
 * give the same masked output against real etcd 3.4 and kvstore. The learner never starts, and
 * no voter is added, so the member keeps its quorum.
 * Not compared: re-adding a peer URL (etcd answers "member ID already exist" or "Peer URLs
 * already exists" depending on whether the two adds fall in the same second).
 */
import { differentialSuite, type DiffCase, type MaskOptions } from '../support/processes.js';

/** Member ids print as %x, the cluster id as %16x (space padded). */
const IDS: MaskOptions = {
  extra: [
    [/\bMember [0-9a-f]{1,16}\b/g, 'Member <id>'],
    [/\bcluster +[0-9a-f]{1,16}\b/g, 'cluster <id>'],
    [/^[0-9a-f]{1,16}, (started|unstarted), /gm, '<id>, $1, '],
  ],
};

/** Members come in id order, and ids differ per run: compare the rows as a set. */
const sortLines = (s: string) => s.split('\n').filter((l) => l !== '').sort().map((l) => `${l}\n`).join('');
/** `ETCD_INITIAL_CLUSTER` lists members in id order: sort it. */
const sortCluster = (s: string) => s.replace(/ETCD_INITIAL_CLUSTER="([^"]*)"/, (_, v: string) => `ETCD_INITIAL_CLUSTER="${v.split(',').sort().join(',')}"`);

/**
 * Intentional difference: the reference 3.4 server drops the learner flag from the member
 * list when a learner's peer URLs are updated (the member stays a learner in consensus).
 * kvstore keeps listing it as a learner, so this step compares every column but that one.
 */
const maskLearnerColumn = (s: string) => sortLines(s.replace(/, (true|false)$/gm, ', <is-learner>'));

const CASES: readonly DiffCase[] = [
  {
    name: 'unknown members, learner limit, promote refusals, move-leader',
    mask: IDS,
    steps: [
      ['member', 'remove', '1234'],
      ['member', 'update', '1234', '--peer-urls=http://127.0.0.1:1'],
      ['member', 'promote', '1234'],
      ['move-leader', '1234'],
      { run: ['member', 'list'], capture: { self: /^([0-9a-f]+),/ } },
      ['member', 'promote', '{self}'],
      { run: ['member', 'add', 'l1', '--learner', '--peer-urls=http://127.0.0.1:1'], capture: { learner: /^Member +([0-9a-f]+) added/ }, normalize: sortCluster },
      { run: ['member', 'list'], normalize: sortLines },
      ['member', 'add', 'l2', '--learner', '--peer-urls=http://127.0.0.1:2'],
      ['member', 'promote', '{learner}'],
      ['move-leader', '{learner}'],
      ['member', 'update', '{learner}', '--peer-urls=http://127.0.0.1:3'],
      { run: ['member', 'list'], normalize: maskLearnerColumn },
      ['member', 'remove', '{learner}'],
      ['member', 'list'],
      ['put', 'still', 'serving'],
      ['get', 'still'],
    ],
  },
];

differentialSuite('etcdctl membership', CASES);
