// Permission intervals: etcd's bytes-affine order, the point/range forms and the cover check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareBound, contains, intersects, meets, pointOf, rangeOf, sortIntervals } from '../../../server/auth/intervals.js';
import { mergePermissions, permits, PermType } from '../../../server/auth/permissions.js';
import { Permission_Type, type Role } from '../../../proto/gen/etcd/auth.js';

const b = (s: string): Buffer => Buffer.from(s);
const ivl = (begin: string, end: string) => rangeOf(b(begin), end === '\0' ? Buffer.from([0]) : b(end));

void test('an empty bound is greater than every key; `\\0` as a range end means +infinity', () => {
  assert.equal(compareBound(b(''), b('zzz')), 1);
  assert.equal(compareBound(b('a'), b('')), -1);
  assert.equal(compareBound(b(''), b('')), 0);
  assert.equal(rangeOf(b('a'), Buffer.from([0])).end.length, 0);
  assert.deepEqual(pointOf(b('k')).end, Buffer.from('k\0'));
});

void test('meets follows etcd interval order (left: begin before and end at or before the other begin)', () => {
  const table: [string, string, string, string, boolean][] = [
    ['a', 'b', 'b', 'c', false], // touching on the left: apart
    ['b', 'c', 'a', 'b', false], // touching on the right: apart
    ['a', 'c', 'b', 'd', true],
    ['b', 'c', 'a', 'd', true],
    ['a', '\0', 'x', 'y', true], // +infinity end
    ['x', 'y', 'a', '\0', true],
    ['b', 'b', 'a', 'c', true], // an empty interval inside another meets it (etcd's order)
  ];
  for (const [a1, a2, b1, b2, want] of table) assert.equal(meets(ivl(a1, a2), ivl(b1, b2)), want, `${a1}-${a2} vs ${b1}-${b2}`);
});

void test('contains needs a gap-free cover of the whole interval', () => {
  const set = sortIntervals([ivl('c', 'e'), ivl('a', 'c')]);
  assert.equal(contains(set, ivl('b', 'd')), true);
  assert.equal(contains(set, ivl('a', 'e')), true);
  assert.equal(contains(set, ivl('b', 'f')), false);
  assert.equal(contains(set, ivl('0', 'b')), false);
  const gap = sortIntervals([ivl('a', 'b'), ivl('c', 'e')]);
  assert.equal(contains(gap, ivl('a', 'd')), false);
  assert.equal(contains(sortIntervals([ivl('a', '\0')]), ivl('q', '\0')), true);
  assert.equal(contains(sortIntervals([ivl('a', 'z')]), ivl('q', '\0')), false);
  assert.equal(contains([], ivl('a', 'b')), false);
});

void test('intersects: a point is held by any interval around it', () => {
  const set = sortIntervals([pointOf(b('foo')), ivl('k/', 'k0')]);
  assert.equal(intersects(set, pointOf(b('foo'))), true);
  assert.equal(intersects(set, pointOf(b('fo'))), false);
  assert.equal(intersects(set, pointOf(b('k/1'))), true);
  assert.equal(intersects(set, pointOf(b('k0'))), false);
});

const perm = (permType: Permission_Type, key: string, rangeEnd = '') => ({ permType, key: b(key), rangeEnd: rangeEnd === '\0' ? Buffer.from([0]) : b(rangeEnd) });
const roles = new Map<string, Role>([
  ['reader', { name: b('reader'), keyPermission: [perm(Permission_Type.READ, 'foo'), perm(Permission_Type.READ, 'dir/', 'dir0')] }],
  ['writer', { name: b('writer'), keyPermission: [perm(Permission_Type.READWRITE, 'a', 'c'), perm(Permission_Type.WRITE, 'x', '\0')] }],
]);

void test('merged permissions: a user gets the union of its roles; missing roles are skipped', () => {
  const p = mergePermissions(['reader', 'writer', 'gone'], (r) => roles.get(r));
  const cases: [string, string, PermType, boolean][] = [
    ['foo', '', PermType.Read, true],
    ['foo', '', PermType.Write, false],
    ['foo', 'fop', PermType.Read, true], // the single key's point interval covers [foo, fop)? no: [foo, foo\0) only
    ['dir/a', '', PermType.Read, true],
    ['dir/', 'dir0', PermType.Read, true],
    ['dir/', 'dir1', PermType.Read, false],
    ['a', 'c', PermType.Write, true],
    ['b', '', PermType.Read, true],
    ['x', '\0', PermType.Write, true],
    ['zz', '', PermType.Write, true],
    ['x', '\0', PermType.Read, false],
    ['c', '', PermType.Read, false],
  ];
  for (const [key, end, type, want] of cases) {
    const got = permits(p, b(key), end === '\0' ? Buffer.from([0]) : b(end), type);
    if (key === 'foo' && end === 'fop') assert.equal(got, false, 'a single-key grant does not cover a range');
    else assert.equal(got, want, `${type === PermType.Read ? 'read' : 'write'} ${key}..${end}`);
  }
});
