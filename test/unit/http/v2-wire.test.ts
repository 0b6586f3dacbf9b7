/** The v2 edge's pure parts: Go-exact JSON, form parsing, parameter checks, path cleaning, peer URL checks. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FormValues, mediaType, parseQueryInto } from '../../../server/api/http/v2/form.js';
import { escapePath, muxCleanPath } from '../../../server/api/http/v2/go-path.js';
import { parseKeyRequest, parseUint64 } from '../../../server/api/http/v2/key-request.js';
import { parsePeerUrlsBody } from '../../../server/api/http/v2/member-request.js';
import { v2HttpStatus } from '../../../server/api/http/v2/error-status.js';
import { errorBody, eventBody, goString, rfc3339 } from '../../../server/api/http/v2/wire-json.js';
import { v2Error } from '../../../server/v2store/errors.js';

const form = (q: string): FormValues => {
  const f = new FormValues();
  assert.equal(parseQueryInto(f, q), undefined);
  return f;
};

void describe('wire JSON', () => {
  void it('escapes strings like Go’s encoding/json', () => {
    assert.equal(goString('a"b\\c\n\r\t'), '"a\\"b\\\\c\\n\\r\\t"');
    assert.equal(goString('<&>\u2028\u2029'), '"\\u003c\\u0026\\u003e\\u2028\\u2029"');
    assert.equal(goString('\u0001\b\f\u001f\u007f'), '"\\u0001\\u0008\\u000c\\u001f\u007f"');
    assert.equal(goString('é😀'), '"é😀"');
    assert.equal(goString('\ud800x'), '"\\ufffdx"');
  });

  void it('formats times as RFC 3339 without trailing fractional zeros', () => {
    assert.equal(rfc3339(Date.UTC(2026, 10, 21, 9, 5, 27, 91)), '2026-11-21T09:05:27.091Z');
    assert.equal(rfc3339(Date.UTC(2026, 10, 21, 9, 5, 27, 90)), '2026-11-21T09:05:27.09Z');
    assert.equal(rfc3339(Date.UTC(2026, 10, 21, 9, 5, 27, 0)), '2026-11-21T09:05:27Z');
  });

  void it('writes events in Go field order, without the /1 prefix, omitting empty fields and refresh', () => {
    const body = eventBody({
      action: 'update',
      node: { key: '/1/d', dir: true, expiration: Date.UTC(2026, 0, 1), ttl: 0, modifiedIndex: 4n, createdIndex: 3n },
      prevNode: { key: '/1/d', dir: true, nodes: [], modifiedIndex: 3n, createdIndex: 3n },
      etcdIndex: 4n,
      refresh: true,
    });
    assert.equal(body, '{"action":"update","node":{"key":"/d","dir":true,"expiration":"2026-01-01T00:00:00Z","modifiedIndex":4,"createdIndex":3},"prevNode":{"key":"/d","dir":true,"modifiedIndex":3,"createdIndex":3}}\n');
    assert.equal(eventBody({ action: 'delete', node: { key: '/1/x', modifiedIndex: 2n, createdIndex: 1n }, etcdIndex: 2n }, true), '{"action":"delete","node":{"key":"/x","modifiedIndex":2,"createdIndex":1}}\n');
    assert.equal(eventBody({ action: 'create', node: { key: '/1/x', value: '', modifiedIndex: 2n, createdIndex: 2n }, etcdIndex: 2n }, true), '{"action":"create"}\n');
  });

  void it('writes errors with cause only when set', () => {
    assert.equal(errorBody(v2Error(100, '/a', 5n)), '{"errorCode":100,"message":"Key not found","cause":"/a","index":5}\n');
    assert.equal(errorBody(v2Error(300, '', 0n)), '{"errorCode":300,"message":"Raft Internal Error","index":0}\n');
  });

  void it('maps codes to HTTP statuses like etcd', () => {
    const table: [number, number][] = [[100, 404], [101, 412], [102, 403], [104, 400], [105, 412], [107, 400], [108, 403], [110, 401], [201, 400], [209, 400], [300, 500], [301, 500], [401, 400]];
    for (const [code, status] of table) assert.equal(v2HttpStatus(code), status, String(code));
  });
});

void describe('form parsing', () => {
  void it('decodes + and %XX, keeps repeated and empty values, and reports Go’s errors', () => {
    const f = form('a=1&a=2&b=x+y%2Fz&c=&d&&%C3%A9=%E2%82%AC');
    assert.equal(f.first('a'), '1');
    assert.equal(f.first('b'), 'x y/z');
    assert.ok(f.has('c') && f.has('d'));
    assert.equal(f.first('d'), '');
    assert.equal(f.first('é'), '€');
    assert.equal(parseQueryInto(new FormValues(), 'a=%zz'), 'invalid URL escape "%zz"');
    assert.equal(parseQueryInto(new FormValues(), 'a=%4'), 'invalid URL escape "%4"');
    assert.equal(parseQueryInto(new FormValues(), 'a=1;b=2'), 'invalid semicolon separator in query');
  });

  void it('reads media types like mime.ParseMediaType', () => {
    assert.deepEqual(mediaType('Application/X-WWW-Form-Urlencoded; charset=utf-8'), { ok: true, type: 'application/x-www-form-urlencoded' });
    assert.deepEqual(mediaType(undefined), { ok: true, type: 'application/octet-stream' });
    assert.deepEqual(mediaType('text'), { ok: false, error: 'mime: expected slash after first token' });
    assert.deepEqual(mediaType('; x=y'), { ok: false, error: 'mime: no media type' });
  });
});

void describe('parseKeyRequest', () => {
  const T = Date.UTC(2026, 0, 1);

  void it('turns PUT parameters into a replicated request', () => {
    const r = parseKeyRequest('PUT', '/a/b', form('value=v&ttl=5&prevExist=true&prevIndex=7&prevValue=o&dir=false&refresh=0'), T);
    assert.deepEqual(r, {
      ok: true,
      action: {
        kind: 'write',
        noValueOnSuccess: false,
        req: { method: 'PUT', path: '/1/a/b', value: 'v', dir: false, prevValue: 'o', prevIndex: 7n, recursive: false, prevExist: true, refresh: false, expiration: T + 5000 },
      },
    });
  });

  void it('routes GETs: local read, quorum read, watch', () => {
    assert.deepEqual(parseKeyRequest('GET', '', form('recursive=T&sorted=1'), T), { ok: true, action: { kind: 'read', path: '/1', recursive: true, sorted: true, noValueOnSuccess: false } });
    assert.deepEqual(parseKeyRequest('HEAD', '/k', form(''), T), { ok: true, action: { kind: 'read', path: '/1/k', recursive: false, sorted: false, noValueOnSuccess: false } });
    assert.deepEqual(parseKeyRequest('GET', '/k', form('quorum=true&wait=true'), T), {
      ok: true,
      action: { kind: 'write', req: { method: 'GET', path: '/1/k', recursive: false, sorted: false }, noValueOnSuccess: false },
    });
    assert.deepEqual(parseKeyRequest('GET', '/k/', form('wait=true&waitIndex=12&stream=true&recursive=true'), T), {
      ok: true,
      action: { kind: 'watch', path: '/1/k', recursive: true, stream: true, sinceIndex: 12n },
    });
  });

  void it('checks in etcd’s order', () => {
    const first = parseKeyRequest('PUT', '/k', form('prevIndex=x&recursive=maybe&ttl=y'), T);
    assert.equal(!first.ok && first.error.cause, 'invalid value for "prevIndex"');
    const second = parseKeyRequest('PUT', '/k', form('sorted=maybe&recursive=maybe'), T);
    assert.equal(!second.ok && second.error.cause, 'invalid value for "recursive"');
    const nv = parseKeyRequest('PUT', '/k', form('noValueOnSuccess=x'), T);
    assert.equal(!nv.ok && nv.error.cause, 'invalid value for "noValueOnSuccess"');
  });

  void it('parses unsigned 64-bit decimals only', () => {
    assert.equal(parseUint64('18446744073709551615'), 18446744073709551615n);
    assert.equal(parseUint64('18446744073709551616'), undefined);
    assert.equal(parseUint64('007'), 7n);
    for (const bad of ['', '-1', '+1', '1.0', '0x10', ' 1']) assert.equal(parseUint64(bad), undefined, bad);
  });
});

void describe('paths', () => {
  void it('cleans like Go’s ServeMux (trailing slash kept)', () => {
    const table: [string, string][] = [
      ['/v2/keys/a', '/v2/keys/a'],
      ['/v2/keys/', '/v2/keys/'],
      ['/v2/keys//a', '/v2/keys/a'],
      ['/v2/keys/./a/', '/v2/keys/a/'],
      ['/v2/keys/a/../../..', '/'],
      ['/v2/keys/a/..', '/v2/keys'],
    ];
    for (const [p, clean] of table) assert.equal(muxCleanPath(p), clean, p);
  });

  void it('escapes a Location like url.URL.String()', () => {
    assert.equal(escapePath('/v2/keys/a b?c#d!é'), '/v2/keys/a%20b%3Fc%23d%21%C3%A9');
    assert.equal(escapePath("/a-_.~$&+,:;=@/"), "/a-_.~$&+,:;=@/");
  });
});

void describe('peer URLs', () => {
  const table: [string, string | string[]][] = [
    ['{"peerURLs":["https://b:2","http://a:1"]}', ['http://a:1', 'https://b:2']],
    ['{"PeerUrls":["unix://a:1"]}', ['unix://a:1']],
    ['{"peerURLs":["HTTP://a:1"]}', ['http://a:1']],
    ['{"peerURLs":["http://[::1]:2380"]}', ['http://[::1]:2380']],
    ['null', 'no valid URLs given'],
    ['{}', 'no valid URLs given'],
    ['[]', 'json: cannot unmarshal array into Go value of type struct { PeerURLs []string "json:\\"peerURLs\\"" }'],
    ['{"peerURLs":[1]}', 'json: cannot unmarshal number into Go struct field .peerURLs of type string'],
    ['{"peerURLs":{}}', 'json: cannot unmarshal object into Go struct field .peerURLs of type []string'],
    ['', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{"peerURLs":["127.0.0.1:2380"]}', 'parse "127.0.0.1:2380": first path segment in URL cannot contain colon'],
    ['{"peerURLs":["http://a:b"]}', 'parse "http://a:b": invalid port ":b" after host'],
    ['{"peerURLs":["http:foo"]}', 'URL address does not have the form "host:port": http:foo'],
    ['{"peerURLs":["a:1:2"]}', 'URL scheme must be http, https, unix, or unixs: a:1:2'],
    ['{"peerURLs":["http://a:1:2"]}', 'URL address does not have the form "host:port": http://a:1:2'],
    ['{"peerURLs":["http://a:1?x=1"]}', ['http://a:1?x=1']],
  ];
  for (const [body, expected] of table) {
    void it(body === '' ? '(empty body)' : body, () => {
      const r = parsePeerUrlsBody(body);
      if (Array.isArray(expected)) assert.deepEqual(r, { ok: true, peerURLs: expected });
      else assert.deepEqual(r, { ok: false, message: expected });
    });
  }
});
