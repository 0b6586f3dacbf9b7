/**
 * Differential: the watch stream of the JSON gateway (`POST /v3/watch`, requests streamed in the
 * body, one `{"result":…}` line per response) against a real etcd 3.4: create and cancel requests
 * with revisions and watch ids as JSON numbers and strings (client-chosen ids around 2^53),
 * filters by name and number, progress requests, unreadable first and later requests.
 */
import { gatewaySuite, type GwCase } from './gateway-diff.js';

// base64: w1=dzE=, w2=dzI=, w3=dzM=, v=dg==, x=eA==
const CASES: readonly GwCase[] = [
  {
    name: 'create with start_revision as a number, events, cancel by a numeric watch_id',
    steps: [
      { post: '/kv/put', body: '{"key":"dzE=","value":"dg=="}' },
      { open: 'w', post: '/watch', body: '{"create_request":{"key":"dzE=","start_revision":1,"prev_kv":true}}' },
      { await: 'w', lines: 2 },
      { post: '/kv/put', body: '{"key":"dzE=","value":"eA=="}' },
      { await: 'w', lines: 1 },
      { send: 'w', body: '{"cancel_request":{"watch_id":0}}' },
      { await: 'w', lines: 1 },
      { post: '/kv/put', body: '{"key":"dzE=","value":"dg=="}' },
      { send: 'w', body: '{"progress_request":{}}' },
      { close: 'w' },
    ],
  },
  {
    name: 'client-chosen watch ids as numbers and strings; range watch with filters by name and number',
    steps: [
      {
        open: 'w',
        post: '/watch',
        body: '{"create_request":{"key":"dzI=","watch_id":9007199254740993}}\n{"createRequest":{"key":"dzI=","range_end":"dzQ=","watchId":"7","filters":["NOPUT"]}}',
      },
      { await: 'w', lines: 2 },
      { send: 'w', body: '{"create_request":{"key":"dzI=","range_end":"dzQ=","filters":[1,7],"start_revision":"9223372036854775807"}}' },
      { await: 'w', lines: 1 },
      { post: '/kv/put', body: '{"key":"dzI=","value":"dg=="}' },
      { await: 'w', lines: 1 },
      { post: '/kv/deleterange', body: '{"key":"dzI=","range_end":"dzQ="}' },
      { await: 'w', lines: 2, sorted: true },
      { send: 'w', body: '{"cancel_request":{"watch_id":9007199254740993}}{"cancel_request":{"watch_id":"7"}}' },
      { await: 'w', lines: 2 },
      { send: 'w', body: '{"cancel_request":{"watch_id":9007199254740993}}' },
      { close: 'w' },
    ],
  },
  {
    name: 'an unreadable first request refuses the call; a later one stops reading but events still flow',
    steps: [
      { post: '/watch', body: '{"create_request":{"key":"dzM=","start_revision":1e3}}' },
      { post: '/watch', body: '{"create_request":{"key":"dzM","start_revision":1}}' },
      { post: '/watch', body: '{"create_request":{"key":"dzM=","start_revision":-1' },
      { post: '/watch', body: 'x' },
      { post: '/watch', body: '5' },
      { post: '/watch', body: '[1]' },
      { post: '/watch', body: ' "x"' },
      { post: '/watch', body: 'true' },
      { post: '/watch', body: '[1,}' },
      { post: '/watch', body: 'nul' },
      { post: '/watch', body: '{"create_request":{"key":"dzM=","watch_id":9223372036854775808}}' },
      { post: '/watch', body: '{"create_request":{"key":"dzM=","filters":["NOPE"]}}' },
      { open: 'w', post: '/watch', body: '{"create_request":{"key":"dzM="}}' },
      { await: 'w', lines: 1 },
      { send: 'w', body: '{"cancel_request":{"watch_id":"x"}}' },
      { post: '/kv/put', body: '{"key":"dzM=","value":"dg=="}' },
      { await: 'w', lines: 1 },
      { send: 'w', body: '{"create_request":{"key":"eA=="}}' },
      { post: '/kv/put', body: '{"key":"eA==","value":"dg=="}' },
      { post: '/kv/put', body: '{"key":"dzM=","value":"eA=="}' },
      { await: 'w', lines: 1 },
      { close: 'w' },
    ],
  },
];

gatewaySuite('gateway watch', CASES);
