/**
 * RFC 7541 Appendix C, example by example: each block decodes to the listed fields and leaves
 * the listed dynamic table (entries newest first, and the table size). C.3 and C.4 are the same
 * requests without and with Huffman coding, C.5 and C.6 the same responses (table size 256,
 * with evictions).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HpackDecoder } from '../../../../server/transport/hpack/decoder.js';
import { decodeOk, hex, tableOf, type Pairs } from './hpack-test-util.js';

interface Step {
  readonly block: string;
  readonly fields: Pairs;
  readonly table: Pairs;
  readonly size: number;
}

function run(maxTableSize: number, steps: readonly Step[]): void {
  const decoder = new HpackDecoder({ maxTableSize, maxHeaderListBytes: Infinity });
  for (const [i, s] of steps.entries()) {
    assert.deepEqual(decodeOk(decoder, hex(s.block)), s.fields, `block ${i + 1}`);
    assert.deepEqual(tableOf(decoder), s.table, `table after block ${i + 1}`);
    assert.equal(decoder.table.size, s.size, `table size after block ${i + 1}`);
  }
}

void test('C.2.1 literal with indexing', () => {
  run(4096, [
    {
      block: '400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572',
      fields: [['custom-key', 'custom-header']],
      table: [['custom-key', 'custom-header']],
      size: 55,
    },
  ]);
});

void test('C.2.2 literal without indexing, C.2.3 never indexed, C.2.4 indexed', () => {
  run(4096, [{ block: '040c 2f73 616d 706c 652f 7061 7468', fields: [[':path', '/sample/path']], table: [], size: 0 }]);
  run(4096, [{ block: '1008 7061 7373 776f 7264 0673 6563 7265 74', fields: [['password', 'secret']], table: [], size: 0 }]);
  run(4096, [{ block: '82', fields: [[':method', 'GET']], table: [], size: 0 }]);
  const d = new HpackDecoder({ maxTableSize: 4096, maxHeaderListBytes: Infinity });
  const r = d.decode(hex('1008 7061 7373 776f 7264 0673 6563 7265 74'));
  assert.deepEqual(r, { kind: 'ok', fields: [{ name: 'password', value: 'secret', neverIndex: true }] });
});

const request1: Pairs = [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']];
const request2: Pairs = [...request1, ['cache-control', 'no-cache']];
const request3: Pairs = [[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']];
const requestTables: Pairs[] = [
  [[':authority', 'www.example.com']],
  [['cache-control', 'no-cache'], [':authority', 'www.example.com']],
  [['custom-key', 'custom-value'], ['cache-control', 'no-cache'], [':authority', 'www.example.com']],
];

void test('C.3 requests without Huffman coding', () => {
  run(4096, [
    { block: '8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d', fields: request1, table: requestTables[0]!, size: 57 },
    { block: '8286 84be 5808 6e6f 2d63 6163 6865', fields: request2, table: requestTables[1]!, size: 110 },
    { block: '8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65', fields: request3, table: requestTables[2]!, size: 164 },
  ]);
});

void test('C.4 requests with Huffman coding', () => {
  run(4096, [
    { block: '8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff', fields: request1, table: requestTables[0]!, size: 57 },
    { block: '8286 84be 5886 a8eb 1064 9cbf', fields: request2, table: requestTables[1]!, size: 110 },
    { block: '8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf', fields: request3, table: requestTables[2]!, size: 164 },
  ]);
});

const date1 = 'Mon, 21 Oct 2013 20:13:21 GMT';
const date2 = 'Mon, 21 Oct 2013 20:13:22 GMT';
const cookie = 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1';
const location: readonly [string, string] = ['location', 'https://www.example.com'];
const response1: Pairs = [[':status', '302'], ['cache-control', 'private'], ['date', date1], location];
const response2: Pairs = [[':status', '307'], ['cache-control', 'private'], ['date', date1], location];
const response3: Pairs = [[':status', '200'], ['cache-control', 'private'], ['date', date2], location, ['content-encoding', 'gzip'], ['set-cookie', cookie]];
const responseTables: Pairs[] = [
  [location, ['date', date1], ['cache-control', 'private'], [':status', '302']],
  [[':status', '307'], location, ['date', date1], ['cache-control', 'private']],
  [['set-cookie', cookie], ['content-encoding', 'gzip'], ['date', date2]],
];

void test('C.5 responses without Huffman coding (table size 256: evictions)', () => {
  run(256, [
    {
      block: `4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a
        3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d`,
      fields: response1,
      table: responseTables[0]!,
      size: 222,
    },
    { block: '4803 3330 37c1 c0bf', fields: response2, table: responseTables[1]!, size: 222 },
    {
      block: `88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0
        5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851
        5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31`,
      fields: response3,
      table: responseTables[2]!,
      size: 215,
    },
  ]);
});

void test('C.6 responses with Huffman coding (table size 256: evictions)', () => {
  run(256, [
    {
      block: `4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b
        ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3`,
      fields: response1,
      table: responseTables[0]!,
      size: 222,
    },
    { block: '4883 640e ffc1 c0bf', fields: response2, table: responseTables[1]!, size: 222 },
    {
      block: `88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad
        94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160
        65c0 03ed 4ee5 b106 3d50 07`,
      fields: response3,
      table: responseTables[2]!,
      size: 215,
    },
  ]);
});
