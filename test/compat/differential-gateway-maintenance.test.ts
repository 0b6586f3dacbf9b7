/**
 * Differential: the maintenance routes of the JSON gateway (`/v3/maintenance/status|alarm|
 * defragment|hash|hashkv|snapshot|transfer-leadership`) against a real etcd 3.4: member ids as JSON
 * numbers and strings (alarm memberID, transfer-leadership targetID), enum names and numbers,
 * malformed bodies. Sizes, hashes and raft indexes are masked; of the snapshot stream the chunk
 * structure is compared (the contents differ between the two stores and are masked).
 */
import { gatewaySuite, type GwCase } from './gateway-diff.js';

const CASES: readonly GwCase[] = [
  {
    name: 'status, hash, defragment; bodies the reference ignores or refuses',
    steps: [
      { post: '/kv/put', body: '{"key":"bTE=","value":"dg=="}' },
      { post: '/maintenance/status', body: '{}', capture: { self: 'header.member_id' } },
      { post: '/maintenance/status', body: '' },
      { post: '/maintenance/status', body: '{"anything":[1,2]}' },
      { post: '/maintenance/status', body: '{' },
      { post: '/maintenance/hash', body: '{}' },
      { post: '/maintenance/hash', body: '{"revision":1e3}' },
      { post: '/maintenance/defragment', body: '{}' },
      { post: '/maintenance/defragment', body: '[]' },
      { post: '/maintenance/hashkv', body: '{"revision":2}' },
      { post: '/maintenance/downgrade', body: '{"action":"VALIDATE","version":"3.3"}' },
      { post: '/maintenance/unknown', body: '{}' },
    ],
  },
  {
    name: 'alarms: memberID as a number and a string, enums by name and number',
    steps: [
      { post: '/maintenance/status', body: '{}', capture: { self: 'header.member_id' } },
      { post: '/maintenance/alarm', body: '{"action":"GET"}' },
      { post: '/maintenance/alarm', body: '{"action":"ACTIVATE","memberID":{self},"alarm":"NOSPACE"}' },
      { post: '/maintenance/alarm', body: '{"action":0,"alarm":1}' },
      { post: '/maintenance/alarm', body: '{"action":"GET","alarm":"NONE"}' },
      { post: '/maintenance/alarm', body: '{"action":"GET","alarm":7}' },
      { post: '/kv/put', body: '{"key":"bTI=","value":"dg=="}' },
      { post: '/kv/range', body: '{"key":"bTE="}' },
      { post: '/maintenance/alarm', body: '{"action":"DEACTIVATE","memberID":"{self}","alarm":1}' },
      { post: '/maintenance/alarm', body: '{"action":"GET"}' },
      { post: '/kv/put', body: '{"key":"bTI=","value":"dg=="}' },
      { post: '/maintenance/alarm', body: '{"action":"DEACTIVATE","memberID":9007199254740993,"alarm":"NOSPACE"}' },
      { post: '/maintenance/alarm', body: '{"action":"GET","memberID":-1}' },
      { post: '/maintenance/alarm', body: '{"action":"NOPE"}' },
      { post: '/maintenance/alarm', body: '{"action":"GET","alarm":"nospace"}' },
      { post: '/maintenance/alarm', body: '{"action":1.0}' },
      { post: '/maintenance/alarm', body: '{"action":"1"}' },
    ],
  },
  {
    name: 'transfer-leadership with targetID as a number; snapshot stream',
    steps: [
      { post: '/maintenance/status', body: '{}', capture: { self: 'header.member_id' } },
      { post: '/maintenance/transfer-leadership', body: '{"targetID":{self}}' },
      { post: '/maintenance/transfer-leadership', body: '{"targetID":"{self}"}' },
      { post: '/maintenance/transfer-leadership', body: '{"targetID":18446744073709551615}' },
      { post: '/maintenance/transfer-leadership', body: '{"targetID":-5}' },
      { post: '/maintenance/transfer-leadership', body: '{}' },
      { post: '/maintenance/snapshot', body: '{"x":' },
      { post: '/maintenance/snapshot', body: '5' },
      { post: '/maintenance/snapshot', body: '{}' },
    ],
  },
];

gatewaySuite('gateway maintenance', CASES);
