/**
 * Differential: etcdctl 3.4 maintenance and cluster commands (endpoint health, endpoint status,
 * member list, alarm list, defrag, snapshot save) give the same masked output against real
 * etcd 3.4 and kvstore. Ids, sizes, durations, raft term/index and addresses are masked;
 * the member name, the leader/learner flags, the version and the revision are compared.
 * Table output (-w table) is left out: its column widths follow the masked values.
 */
import { differentialSuite, type DiffCase } from '../support/processes.js';

const CASES: readonly DiffCase[] = [
  {
    name: 'endpoint health, simple and json',
    steps: [
      ['endpoint', 'health'],
      ['endpoint', 'health', '-w', 'json'],
    ],
  },
  {
    name: 'endpoint status and member list, simple and json',
    steps: [
      ['put', 'a', '1'],
      ['endpoint', 'status'],
      ['endpoint', 'status', '-w', 'json'],
      ['member', 'list'],
      ['member', 'list', '-w', 'json'],
      ['member', 'list', '-w', 'fields'],
    ],
  },
  {
    name: 'alarm list and defrag',
    steps: [
      ['alarm', 'list'],
      ['alarm', 'list', '-w', 'json'],
      ['put', 'a', '1'],
      ['defrag'],
      ['get', 'a'],
    ],
  },
  {
    name: 'snapshot save',
    steps: [
      ['put', 'a', '1'],
      ['snapshot', 'save', '{tmp}/snap.db'],
      ['get', 'a', '-w', 'json'],
    ],
  },
];

differentialSuite('etcdctl maintenance', CASES);
