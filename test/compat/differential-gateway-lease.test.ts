/**
 * Differential: the lease routes of the JSON gateway (`/v3/lease/grant|revoke|timetolive|leases|
 * keepalive` and the `/v3/kv/lease/…` spellings) against a real etcd 3.4: lease ids sent as JSON
 * numbers (a random id is ~4e18, far above 2^53) and as strings, ids chosen by the client around
 * 2^53 and 2^63-1, negative and malformed ids, the keep-alive stream with several requests.
 * Remaining TTLs depend on timing: a positive remaining TTL is masked, -1 is kept.
 */
import { gatewaySuite, type GwCase } from './gateway-diff.js';

const LIVE: ReadonlyArray<readonly [RegExp, string]> = [[/"TTL":"[1-9]\d*","grantedTTL"/g, '"TTL":"<live>","grantedTTL"']];

/** etcd lists a lease's keys in map order. */
function sortKeys(text: string): string {
  return text.replace(/"keys":\[([^\]]*)\]/g, (_all, keys: string) => `"keys":[${keys.split(',').sort().join(',')}]`);
}

const CASES: readonly GwCase[] = [
  {
    name: 'a random lease id sent back as a JSON number addresses the same lease',
    mask: LIVE,
    normalize: sortKeys,
    steps: [
      { post: '/lease/grant', body: '{"TTL":60}', capture: { lease: 'ID' } },
      { post: '/lease/timetolive', body: '{"ID":{lease}}' },
      { post: '/lease/timetolive', body: '{"ID":"{lease}"}' },
      { post: '/kv/put', body: '{"key":"bDE=","value":"dg==","lease":{lease}}' },
      { post: '/kv/put', body: '{"key":"bDI=","value":"dg==","lease":"{lease}"}' },
      { post: '/kv/range', body: '{"key":"bDE="}' },
      { post: '/kv/lease/timetolive', body: '{"ID":{lease},"keys":true}' },
      { post: '/lease/keepalive', body: '{"ID":{lease}}' },
      { post: '/lease/keepalive', body: '{"ID":{lease}} {"ID":"{lease}"}\n{"ID":{lease}}' },
      { post: '/lease/leases', body: '{}' },
      { post: '/lease/revoke', body: '{"ID":{lease}}' },
      { post: '/kv/range', body: '{"key":"bDE=","range_end":"bDM="}' },
      { post: '/lease/timetolive', body: '{"ID":{lease}}' },
      { post: '/lease/revoke', body: '{"ID":{lease}}' },
      { post: '/lease/keepalive', body: '{"ID":{lease}}' },
    ],
  },
  {
    name: 'ids chosen by the client: around 2^53, 2^63-1, negative, out of range, malformed',
    mask: LIVE,
    steps: [
      { post: '/lease/grant', body: '{"TTL":60,"ID":9007199254740993}' },
      { post: '/lease/timetolive', body: '{"ID":9007199254740993}' },
      { post: '/lease/timetolive', body: '{"ID":9007199254740992}' },
      { post: '/lease/grant', body: '{"TTL":"60","ID":"9223372036854775807"}' },
      { post: '/kv/lease/timetolive', body: '{"ID":9223372036854775807}' },
      { post: '/lease/grant', body: '{"TTL":60,"ID":9223372036854775807}' },
      { post: '/lease/grant', body: '{"TTL":60,"ID":9223372036854775808}' },
      { post: '/lease/grant', body: '{"TTL":60,"ID":-5}' },
      { post: '/lease/grant', body: '{"TTL":60,"ID":"-9223372036854775808"}' },
      { post: '/lease/grant', body: '{"TTL":60,"ID":1e18}' },
      { post: '/lease/grant', body: '{"TTL":60,"ID":"4e18"}' },
      { post: '/lease/grant', body: '{"TTL":60.0}' },
      { post: '/lease/grant', body: '{"TTL":-1,"ID":77}' },
      { post: '/lease/grant', body: '{"TTL":9223372036854775807,"ID":78}' },
      { post: '/lease/timetolive', body: '{"ID":"x"}' },
      { post: '/lease/timetolive', body: '{"ID":true}' },
      { post: '/lease/timetolive', body: '{"ID":12,"keys":"yes"}' },
      { post: '/lease/revoke', body: '{"ID":9007199254740993}' },
      { post: '/kv/lease/revoke', body: '{"ID":"9223372036854775807"}' },
      { post: '/lease/revoke', body: '{"ID":9223372036854775807}' },
      { post: '/lease/revoke', body: '{"ID":-1}' },
      { post: '/lease/revoke', body: '{}' },
      { post: '/lease/grant', body: '{"TTL":60,"ID":' },
      { post: '/lease/leases', body: 'x' },
    ],
  },
  {
    name: 'keep-alive stream: unreadable first or later request, empty body, unknown lease',
    steps: [
      { post: '/lease/grant', body: '{"TTL":30}', capture: { k: 'ID' } },
      { post: '/lease/keepalive', body: '' },
      { post: '/lease/keepalive', body: '{"ID":"x"}' },
      { post: '/lease/keepalive', body: '{"ID":1.5}' },
      { post: '/lease/keepalive', body: '{"ID":{k}' },
      { post: '/lease/keepalive', body: '{"ID":{k}}{"ID":"x"}' },
      { post: '/lease/keepalive', body: '{"ID":9007199254740993}' },
      { post: '/lease/keepalive', body: '{"ID":{k}}x' },
      { post: '/lease/keepalive', body: 'null' },
      { post: '/lease/keepalive', body: '{"ID":{k}} 5' },
      { post: '/lease/keepalive', body: '7' },
      { post: '/lease/revoke', body: '{"ID":"{k}"}' },
    ],
  },
];

gatewaySuite('gateway lease', CASES);
