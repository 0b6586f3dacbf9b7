/**
 * Differential: the cluster routes of the JSON gateway (`/v3/cluster/member/list|add|remove|
 * update|promote`) against a real etcd 3.4 on a one-member cluster: member ids (random uint64,
 * often above 2^63) sent back as JSON numbers and as strings, out-of-range and negative ids,
 * malformed peer URL lists. The added learner's peer URL is a loopback port nobody serves.
 * Member names and URLs are masked; ids are masked through their captured values.
 */
import { gatewaySuite, type GwCase } from './gateway-diff.js';

const LEARNER_URL = 'http://127.0.0.1:9';

/** Both servers list members by id; the ids are random, so their order is compared sorted. */
function sortMembers(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      try {
        const v = JSON.parse(line) as { members?: unknown[] };
        if (!Array.isArray(v.members)) return line;
        v.members = v.members.map((m) => JSON.stringify(m)).sort().map((m) => JSON.parse(m) as unknown);
        return JSON.stringify(v);
      } catch {
        return line;
      }
    })
    .join('\n');
}

const CASES: readonly GwCase[] = [
  {
    name: 'list; learner added, promoted (refused) and removed by a numeric id; self updated',
    normalize: sortMembers,
    steps: [
      { post: '/cluster/member/list', body: '{}', capture: { self: 'members.0.ID', selfurl: 'members.0.peerURLs.0' } },
      { post: '/cluster/member/list', body: '{"linearizable":true}' },
      { post: '/cluster/member/add', body: `{"peerURLs":["${LEARNER_URL}"],"isLearner":true}`, capture: { learner: 'member.ID' } },
      { post: '/cluster/member/add', body: '{"peerURLs":["{selfurl}"],"isLearner":true}' },
      { post: '/cluster/member/list', body: '' },
      { post: '/cluster/member/promote', body: '{"ID":{learner}}' },
      { post: '/cluster/member/promote', body: '{"ID":"{learner}"}' },
      { post: '/cluster/member/promote', body: '{"ID":{self}}' },
      { post: '/cluster/member/update', body: '{"ID":{self},"peerURLs":["{selfurl}"]}' },
      { post: '/cluster/member/update', body: '{"ID":{self},"peerURLs":"x"}' },
      { post: '/cluster/member/remove', body: '{"ID":{learner}}' },
      { post: '/cluster/member/remove', body: '{"ID":"{learner}"}' },
      { post: '/cluster/member/list', body: 'null' },
    ],
  },
  {
    name: 'member ids the reference refuses or does not know',
    normalize: sortMembers,
    steps: [
      { post: '/cluster/member/remove', body: '{"ID":18446744073709551615}' },
      { post: '/cluster/member/remove', body: '{"ID":"18446744073709551615"}' },
      { post: '/cluster/member/remove', body: '{"ID":9223372036854775808}' },
      { post: '/cluster/member/remove', body: '{"ID":9007199254740993}' },
      { post: '/cluster/member/remove', body: '{"ID":18446744073709551616}' },
      { post: '/cluster/member/remove', body: '{"ID":-1}' },
      { post: '/cluster/member/remove', body: '{"ID":"-0"}' },
      { post: '/cluster/member/remove', body: '{"ID":-0}' },
      { post: '/cluster/member/remove', body: '{"ID":1e3}' },
      { post: '/cluster/member/remove', body: '{"ID":"0x10"}' },
      { post: '/cluster/member/remove', body: '{}' },
      { post: '/cluster/member/promote', body: '{"ID":5}' },
      { post: '/cluster/member/update', body: '{"ID":5,"peerURLs":["http://127.0.0.1:9"]}' },
      { post: '/cluster/member/add', body: '{"peerURLs":[1]}' },
      { post: '/cluster/member/add', body: '{"peerURLs":["not a url"]}' },
      { post: '/cluster/member/add', body: '{"peerURLs":[]}' },
      { post: '/cluster/member/add', body: '{"isLearner":"true"}' },
      { post: '/cluster/member/add', body: '{"peerURLs":["http://127.0.0.1:9"' },
    ],
  },
];

gatewaySuite('gateway cluster', CASES);
