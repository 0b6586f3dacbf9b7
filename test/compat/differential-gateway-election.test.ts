/**
 * Differential: the Election routes of the JSON gateway (`/v3/election/campaign|proclaim|leader|
 * resign`) against a real etcd 3.4: one candidate's campaign (its lease granted by the member),
 * the leader it makes, proclaims under its leader key and under a wrong one, its resignation;
 * the missing `leader` field (etcd's e2e TestV3Curl{Proclaim,Resign}MissiongLeaderKey), unreadable
 * bodies, an unknown lease, other methods. The leader key and lease are random: captured and masked.
 * A campaign that waits for an earlier leader and `/election/observe` are in
 * test/e2e/gateway-election-wait.test.ts.
 */
import { gatewaySuite, type GwCase } from './gateway-diff.js';

const CASES: readonly GwCase[] = [
  {
    name: 'one candidate: campaign, leader, proclaim, resign',
    steps: [
      { post: '/election/leader', body: '{"name":"ZQ=="}' },
      { post: '/election/campaign', body: '{"name":"ZQ==","value":"djE="}', capture: { key: 'leader.key', lease: 'leader.lease' } },
      { post: '/election/leader', body: '{"name":"ZQ=="}' },
      { post: '/election/campaign', body: '{"name":"ZQ==","value":"djE=","lease":"{lease}"}' },
      { post: '/election/campaign', body: '{"name":"ZQ==","value":"djM=","lease":{lease}}' },
      { post: '/election/proclaim', body: '{"leader":{"name":"ZQ==","key":"{key}","rev":2,"lease":"{lease}"},"value":"djI="}' },
      { post: '/election/leader', body: '{"name":"ZQ=="}' },
      { post: '/election/proclaim', body: '{"leader":{"name":"ZQ==","key":"{key}","rev":1,"lease":"{lease}"},"value":"djQ="}' },
      { post: '/election/proclaim', body: '{"leader":{"key":"ZS94","rev":2},"value":"djQ="}' },
      { post: '/kv/range', body: '{"key":"ZS8=","range_end":"ZTA="}' },
      { post: '/election/resign', body: '{"leader":{"name":"ZQ==","key":"{key}","rev":1}}' },
      { post: '/election/leader', body: '{"name":"ZQ=="}' },
      { post: '/election/resign', body: '{"leader":{"name":"ZQ==","key":"{key}","rev":2}}' },
      { post: '/election/leader', body: '{"name":"ZQ=="}' },
      { post: '/election/resign', body: '{"leader":{"name":"ZQ==","key":"{key}","rev":2}}' },
      { post: '/lease/revoke', body: '{"ID":"{lease}"}' },
    ],
  },
  {
    name: 'missing leader key, unreadable bodies, unknown lease, other methods',
    steps: [
      { post: '/election/proclaim', body: '{"value":"djI="}' },
      { post: '/election/proclaim', body: '{}' },
      { post: '/election/resign', body: '{}' },
      { post: '/election/resign', body: '' },
      { post: '/election/resign', body: '{"leader":null}' },
      { post: '/election/campaign', body: '{"name":"ZQ==","value":"djE=","lease":12345}' },
      { post: '/election/campaign', body: 'xx' },
      { post: '/election/campaign', body: '{"name":1}' },
      { post: '/election/campaign', body: '{"name":"ZQ==","lease":"x"}' },
      { post: '/election/leader', body: '{"name":"ZQ"}' },
      { post: '/election/leader', body: '{}' },
      { post: '/election/proclaim', body: '{"leader":[]}' },
      { post: '/election/leader', body: '{"name":"ZQ=="}', method: 'GET' },
      { post: '/election/campaign', body: '{}', method: 'PUT' },
    ],
  },
];

gatewaySuite('gateway election', CASES);
