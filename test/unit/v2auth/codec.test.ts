/** Users and roles as JSON, read with Go's json.Decoder rules and written as Go marshals them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeRole, decodeUser, encodeRole, encodeUser, parseStored, plainOf } from '../../../server/v2auth/codec.js';
import { emptyUser } from '../../../server/v2auth/types.js';

const user = (text: string): ReturnType<typeof decodeUser> => decodeUser(plainOf(JSON.parse(text)));
const role = (text: string): ReturnType<typeof decodeRole> => decodeRole(plainOf(JSON.parse(text)));

void test('decode: keys match fields case-insensitively, the last wins; unknown keys are ignored', () => {
  assert.deepEqual(user('{"User":"a","user":"b","PASSWORD":"p","other":1,"Grant":["x"]}'), { ...emptyUser('b'), password: 'p', grant: ['x'] });
  assert.deepEqual(role('{"ROLE":"r","Permissions":{"KV":{"Read":["/a"]}}}'), { role: 'r', permissions: { kv: { read: ['/a'], write: null } } });
});

void test('decode: null keeps a field as it was (nil list, nil pointer, empty string); null list items are ""', () => {
  assert.deepEqual(user('{"user":null,"roles":null,"revoke":[null,"a"]}'), { ...emptyUser(''), revoke: ['', 'a'] });
  assert.deepEqual(user('null'), emptyUser(''));
  assert.deepEqual(role('{"role":"r","grant":null,"revoke":{}}'), { role: 'r', permissions: { kv: { read: null, write: null } }, revoke: { kv: { read: null, write: null } } });
  assert.deepEqual(user('{"roles":[]}')?.roles, []);
});

void test('decode: a value of the wrong type fails the whole decode', () => {
  assert.equal(user('{"user":1}'), undefined);
  assert.equal(user('{"roles":"a"}'), undefined);
  assert.equal(user('[]'), undefined);
  assert.equal(role('{"permissions":{"kv":{"read":[1]}}}'), undefined);
  assert.equal(role('{"grant":true}'), undefined);
});

void test('encode: struct order, omitempty as etcd, null for nil lists', () => {
  assert.equal(encodeUser({ ...emptyUser('u'), roles: null }), '{"user":"u","roles":null}');
  assert.equal(encodeUser({ ...emptyUser('u'), password: 'h', roles: [], grant: [], revoke: ['x'] }), '{"user":"u","password":"h","roles":[],"revoke":["x"]}');
  assert.equal(encodeRole({ role: 'r', permissions: { kv: { read: ['/a'], write: null } } }), '{"role":"r","permissions":{"kv":{"read":["/a"],"write":null}}}');
  assert.equal(
    encodeRole({ role: 'r', permissions: { kv: { read: null, write: null } }, grant: { kv: { read: [], write: null } } }),
    '{"role":"r","permissions":{"kv":{"read":null,"write":null}},"grant":{"kv":{"read":[],"write":null}}}',
  );
});

void test('stored values round-trip; invalid ones are undefined', () => {
  const u = { ...emptyUser('u'), password: '$2a$10$x', roles: ['a', 'b'] };
  assert.deepEqual(parseStored(encodeUser(u), decodeUser), u);
  assert.equal(parseStored('{', decodeUser), undefined);
  assert.equal(parseStored('{"user":5}', decodeUser), undefined);
});
