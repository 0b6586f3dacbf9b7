/**
 * Request JSON → message as the reference gateway's jsonpb reads it: 64-bit integers exact from
 * numbers and strings, Go's refusals, base64 as Go decodes it, and every field table checked
 * against the generated codec.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as authpb from '../../../proto/gen/etcd/auth.js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { decodeGoBase64 } from '../../../server/api/http/go-base64.js';
import * as rqAuth from '../../../server/api/http/gateway-auth-request-schemas.js';
import * as rq from '../../../server/api/http/gateway-request-schemas.js';
import * as rqElection from '../../../server/api/http/gateway-election-schemas.js';
import * as epb from '../../../proto/gen/etcd/election.js';
import * as lpb from '../../../proto/gen/etcd/lock.js';
import * as rqLock from '../../../server/api/http/gateway-lock-schemas.js';
import { decodeJsonText, type RequestFns } from '../../../server/api/http/json-decode.js';
import type { FieldKind, MessageSchema } from '../../../server/api/http/jsonpb-schema.js';

const decode = <T>(schema: MessageSchema, fns: RequestFns<T>, text: string): T => {
  const d = decodeJsonText({ schema, fns }, text);
  assert.ok(d.ok, d.ok ? '' : d.status.message);
  return d.value;
};
const refusal = <T>(schema: MessageSchema, fns: RequestFns<T>, text: string): string => {
  const d = decodeJsonText({ schema, fns }, text);
  assert.ok(!d.ok, `expected a refusal of ${text}`);
  assert.equal(d.status.code, 3);
  return d.status.message;
};

void test('a lease id above 2^53 sent as a JSON number keeps every digit (and as a string)', () => {
  for (const text of ['{"ID":3867644404369375500}', '{"ID":"3867644404369375500"}', '{"ID":" 3867644404369375500 "}']) {
    assert.equal(decode(rq.LeaseTimeToLiveRequest, pb.LeaseTimeToLiveRequest, text).ID, 3867644404369375500n);
  }
  fc.assert(
    fc.property(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), fc.boolean(), (id, quoted) => {
      const v = quoted ? `"${id}"` : `${id}`;
      assert.equal(decode(rq.LeaseKeepAliveRequest, pb.LeaseKeepAliveRequest, `{"ID":${v}}`).ID, id);
    }),
  );
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (id) => {
      assert.equal(decode(rq.MemberRemoveRequest, pb.MemberRemoveRequest, `{"ID":${id}}`).ID, id);
    }),
  );
});

void test('nested and streamed messages: ids inside txn compares, puts and watch requests are exact', () => {
  const txn = decode(
    rq.TxnRequest,
    pb.TxnRequest,
    '{"compare":[{"key":"YQ==","target":"LEASE","lease":9007199254740993}],"success":[{"requestPut":{"key":"YQ==","lease":9223372036854775807}}]}',
  );
  assert.deepEqual(txn.compare[0]?.targetUnion, { $case: 'lease', value: 9007199254740993n });
  const put = txn.success[0]?.request;
  assert.ok(put?.$case === 'requestPut');
  assert.equal(put.value.lease, 9223372036854775807n);
  const w = decode(rq.WatchRequest, pb.WatchRequest, '{"create_request":{"key":"YQ==","start_revision":9007199254740993,"watchId":"9007199254740995","filters":["NODELETE",0]}}');
  assert.ok(w.requestUnion?.$case === 'createRequest');
  assert.equal(w.requestUnion.value.startRevision, 9007199254740993n);
  assert.equal(w.requestUnion.value.watchId, 9007199254740995n);
  assert.deepEqual(w.requestUnion.value.filters, [1, 0]);
});

void test("refusals carry Go's texts (etcd 3.4 gateway answers)", () => {
  const R = [rq.RangeRequest, pb.RangeRequest] as const;
  const cases: Array<readonly [string, string]> = [
    ['{"limit":1e3}', 'json: cannot unmarshal number 1e3 into Go value of type int64'],
    ['{"limit":"1.0"}', 'json: cannot unmarshal number 1.0 into Go value of type int64'],
    ['{"limit":9223372036854775808}', 'json: cannot unmarshal number 9223372036854775808 into Go value of type int64'],
    ['{"limit":"abc"}', "invalid character 'a' looking for beginning of value"],
    ['{"limit":""}', 'unexpected end of JSON input'],
    ['{"limit":"01"}', "invalid character '1' after top-level value"],
    ['{"limit":"true"}', 'json: cannot unmarshal bool into Go value of type int64'],
    ['{"limit":{}}', 'json: cannot unmarshal object into Go value of type int64'],
    ['{"key":1}', 'json: cannot unmarshal number into Go value of type []uint8'],
    ['{"key":"YQ"}', 'illegal base64 data at input byte 0'],
    ['{"key":[300]}', 'json: cannot unmarshal number 300 into Go value of type uint8'],
    ['{"keys_only":"true"}', 'json: cannot unmarshal string into Go value of type bool'],
    ['{"sort_order":"FOO"}', 'unknown value "FOO" for enum etcdserverpb.RangeRequest_SortOrder'],
    ['{"sort_order":"toString"}', 'unknown value "toString" for enum etcdserverpb.RangeRequest_SortOrder'],
    ['{"sort_order":1.5}', 'json: cannot unmarshal number 1.5 into Go value of type etcdserverpb.RangeRequest_SortOrder'],
    ['[]', 'json: cannot unmarshal array into Go value of type map[string]json.RawMessage'],
    ['{"key":"YQ==","limit":1', 'unexpected EOF'],
  ];
  for (const [text, expected] of cases) assert.equal(refusal(...R, text), expected, text);
  assert.equal(refusal(rq.MemberRemoveRequest, pb.MemberRemoveRequest, '{"ID":-1}'), 'json: cannot unmarshal number -1 into Go value of type uint64');
  assert.equal(refusal(rq.MemberRemoveRequest, pb.MemberRemoveRequest, '{"ID":"-0"}'), 'json: cannot unmarshal number -0 into Go value of type uint64');
  assert.equal(refusal(rq.TxnRequest, pb.TxnRequest, '{"compare":{}}'), 'json: cannot unmarshal object into Go value of type []json.RawMessage');
});

void test('leniencies of jsonpb: null = unset, unknown keys ignored, last duplicate wins, camelCase wins, bytes as an array', () => {
  const r = decode(rq.RangeRequest, pb.RangeRequest, '{"key":[97,98],"limit":null,"x":{"y":[1]},"revision":1,"revision":"7","keys_only":false,"keysOnly":true}');
  assert.equal(Buffer.from(r.key).toString(), 'ab');
  assert.equal(r.limit, 0n);
  assert.equal(r.revision, 7n);
  assert.equal(r.keysOnly, true);
  const op = decode(rq.RequestOp, pb.RequestOp, '{"request_put":null}');
  assert.ok(op.request?.$case === 'requestPut', 'a oneof member given as null still selects its case');
});

void test('Go base64: padding required, newlines skipped, unused bits ignored, offsets in bytes', () => {
  const ok = (s: string): string => {
    const d = decodeGoBase64(s);
    assert.ok(d.ok, s);
    return d.bytes.toString('latin1');
  };
  const bad = (s: string): string => {
    const d = decodeGoBase64(s);
    assert.ok(!d.ok, s);
    return d.message;
  };
  assert.equal(ok(''), '');
  assert.equal(ok('YQ=='), 'a');
  assert.equal(ok('YR=='), 'a');
  assert.equal(ok('YQ=\n='), 'a');
  assert.equal(ok('\r\nYWJj\n'), 'abc');
  assert.equal(bad('YQ'), 'illegal base64 data at input byte 0');
  assert.equal(bad('Y'), 'illegal base64 data at input byte 0');
  assert.equal(bad('YQ='), 'illegal base64 data at input byte 3');
  assert.equal(bad('YQ==YQ=='), 'illegal base64 data at input byte 4');
  assert.equal(bad('=YQ='), 'illegal base64 data at input byte 0');
  assert.equal(bad('YWJj!'), 'illegal base64 data at input byte 4');
  assert.equal(bad('\u00e9'), 'illegal base64 data at input byte 0');
  assert.equal(bad('YWJj\u00e9'), 'illegal base64 data at input byte 4');
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      const text = Buffer.from(bytes).toString('base64');
      const d = decodeGoBase64(text);
      assert.ok(d.ok);
      assert.deepEqual(new Uint8Array(d.bytes), bytes);
      // a line break forces the quantum-by-quantum path: same bytes
      const slow = decodeGoBase64(`${text}\n`);
      assert.ok(slow.ok);
      assert.deepEqual(slow.bytes, d.bytes);
    }),
  );
  // non-zero unused bits of the last character, both paths alike
  assert.deepEqual(decodeGoBase64('YR=='), decodeGoBase64('YR==\r\n'));
});

/** A non-default JSON value of a field's kind. */
function sample(kind: FieldKind): unknown {
  switch (kind.type) {
    case 'message':
      return {};
    case 'enum':
      return Object.keys(kind.values)[1];
    case 'bool':
      return true;
    case 'string':
      return 'x';
    case 'bytes':
      return 'YQ==';
    default:
      return '5';
  }
}

function checkTables(tables: Array<[string, MessageSchema]>): void {
  for (const [name, schema] of tables) {
    const fns = ({ ...authpb, ...pb, ...epb, ...lpb } as unknown as Record<string, RequestFns<unknown>>)[name];
    assert.ok(fns, `no generated codec ${name}`);
    const empty = fns.fromJSON({}) as Record<string, unknown>;
    const oneofGroups = new Set(Object.keys(empty).filter((k) => empty[k] === undefined));
    const plainFields = schema.fields.filter((f) => !f.oneof).length;
    assert.equal(Object.keys(empty).length, plainFields + (schema.fields.some((f) => f.oneof) ? Math.max(oneofGroups.size, 1) : 0), name);
    for (const f of schema.fields) {
      const value = f.repeated ? [sample(f.kind)] : sample(f.kind);
      for (const key of [f.name, f.jsonName]) {
        const msg = decode(schema, fns, JSON.stringify({ [key]: value }));
        const json = fns.toJSON(msg) as Record<string, unknown>;
        assert.ok(f.name in json, `${name}.${f.name} given as ${key} is lost: ${JSON.stringify(json)}`);
      }
    }
  }
}

void test('every field table matches its generated codec: each field round-trips under its proto name', () => {
  const tables = Object.entries(rq) as Array<[string, MessageSchema]>;
  assert.ok(tables.length >= 25);
  checkTables(tables);
});

void test('every Auth route table matches its generated codec', () => {
  const tables = Object.entries(rqAuth) as Array<[string, MessageSchema]>;
  assert.ok(tables.length >= 18);
  checkTables(tables);
});

void test('every Election route table matches its generated codec', () => {
  const tables = Object.entries(rqElection) as Array<[string, MessageSchema]>;
  assert.equal(tables.length, 5);
  checkTables(tables);
});

void test('every Lock route table matches its generated codec', () => {
  const tables = Object.entries(rqLock) as Array<[string, MessageSchema]>;
  assert.equal(tables.length, 2);
  checkTables(tables);
});

void test('a message above the gRPC receive limit is refused with code 8 and grpc-go words', () => {
  const codec = { schema: rq.PutRequest, fns: pb.PutRequest };
  const body = `{"key":"YQ==","value":"${Buffer.alloc(3000).toString('base64')}"}`;
  const size = pb.PutRequest.encode(decode(rq.PutRequest, pb.PutRequest, body)).finish().length;
  assert.ok(decodeJsonText(codec, body, { maxMessageBytes: size }).ok);
  const d = decodeJsonText(codec, body, { maxMessageBytes: size - 1 });
  assert.ok(!d.ok);
  assert.deepEqual(d.status, { code: 8, message: `grpc: received message larger than max (${size} vs. ${size - 1})` });
});
