/** The cluster's own records in the v2 store (server/apply/v2-cluster-keys.ts): one index each, as etcd 3.4. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { V2Store } from '../../../server/v2store/store.js';
import {
  recordAttributes,
  recordClusterVersion,
  recordMemberAdded,
  recordMemberRemoved,
  recordPeerUrls,
} from '../../../server/apply/v2-cluster-keys.js';

const value = (s: V2Store, path: string): string | undefined => {
  const r = s.get(path, {}, 0);
  return r.ok ? r.value.node?.value : undefined;
};

void it('a fresh member, its attributes and the cluster version take indices 1..3 under /0', () => {
  const s = new V2Store();
  recordMemberAdded(s, 0xabcn, ['http://a:2380'], false);
  recordAttributes(s, 0xabcn, 'n1', ['http://a:2379']);
  recordClusterVersion(s, '3.4.0');
  assert.equal(s.index(), 3n);
  assert.equal(value(s, '/0/members/abc/raftAttributes'), '{"peerURLs":["http://a:2380"]}');
  assert.equal(value(s, '/0/members/abc/attributes'), '{"name":"n1","clientURLs":["http://a:2379"]}');
  assert.equal(value(s, '/0/version'), '3.4.0');
  assert.equal(s.get('/1', {}, 0).ok, true, 'the user key space is untouched');
});

void it('learner add, promotion, peer-URL update, removal; changes etcd would refuse write nothing', () => {
  const s = new V2Store();
  recordMemberAdded(s, 1n, ['http://l:2380'], true);
  assert.equal(value(s, '/0/members/1/raftAttributes'), '{"peerURLs":["http://l:2380"],"isLearner":true}');
  recordMemberAdded(s, 1n, ['http://l:2380'], false);
  assert.equal(value(s, '/0/members/1/raftAttributes'), '{"peerURLs":["http://l:2380"]}');
  recordPeerUrls(s, 1n, ['http://l2:2380']);
  assert.equal(s.index(), 3n);
  recordMemberAdded(s, 1n, ['http://l:2380'], false);
  assert.equal(s.index(), 3n, 're-adding a listed voter writes nothing');
  recordAttributes(s, 1n, '', []);
  assert.equal(value(s, '/0/members/1/attributes'), '{}');
  recordMemberRemoved(s, 1n);
  assert.equal(s.index(), 6n, 'removal: delete the member dir, create its removed_members record');
  assert.equal(value(s, '/0/removed_members/1'), '');
  recordAttributes(s, 1n, 'late', []);
  recordPeerUrls(s, 1n, ['http://x:2380']);
  recordMemberRemoved(s, 1n);
  assert.equal(s.index(), 6n, 'a removed member is no longer written');
});
