/**
 * Differential: the Lock routes of the JSON gateway (`/v3/lock/lock`, `/v3/lock/unlock`) against a
 * real etcd 3.4: a lock under a granted lease (taken again by the same lease at once), its key
 * and its unlock; a lock without lease (the member grants one); an unknown lease; unlock of a key
 * no one holds; unreadable bodies and other methods. Leases and keys are random: captured and
 * masked. A lock that waits for an earlier holder is exercised over gRPC
 * (differential-grpc-lock-election.test.ts), which runs the same recipe.
 */
import { gatewaySuite, type GwCase } from './gateway-diff.js';

const CASES: readonly GwCase[] = [
  {
    name: 'lock, lock again, unlock; lock without lease; unknown lease',
    steps: [
      { post: '/lease/grant', body: '{"TTL":60}', capture: { lease: 'ID' } },
      { post: '/lock/lock', body: '{"name":"bA==","lease":"{lease}"}', capture: { key: 'key' } },
      { post: '/lock/lock', body: '{"name":"bA==","lease":{lease}}' },
      { post: '/kv/range', body: '{"key":"bC8=","range_end":"bDA="}' },
      { post: '/lock/unlock', body: '{"key":"{key}"}' },
      { post: '/kv/range', body: '{"key":"bC8=","range_end":"bDA="}' },
      { post: '/lock/lock', body: '{"name":"bQ=="}', capture: { own: 'key' } },
      { post: '/lock/unlock', body: '{"key":"{own}"}' },
      { post: '/lock/lock', body: '{"name":"bg==","lease":12345}' },
      { post: '/lock/unlock', body: '{"key":"bm90aGluZw=="}' },
      { post: '/lease/revoke', body: '{"ID":"{lease}"}' },
    ],
  },
  {
    name: 'unreadable bodies, other methods',
    steps: [
      { post: '/lock/lock', body: '', capture: { empty: 'key' } },
      { post: '/lock/lock', body: 'xx' },
      { post: '/lock/lock', body: '{"name":1}' },
      { post: '/lock/lock', body: '{"name":"bA==","lease":"x"}' },
      { post: '/lock/unlock', body: '{}' },
      { post: '/lock/unlock', body: '{"key":[]}' },
      { post: '/lock/lock', body: '{"name":"bA=="}', method: 'GET' },
      { post: '/lock/unlock', body: '{}', method: 'PUT' },
    ],
  },
];

gatewaySuite('gateway lock', CASES);
