/**
 * etcdctl 3.4 maintenance and cluster commands against a spawned member: snapshot save,
 * endpoint health (the exact line), endpoint status, member list, alarm list, defrag, and a
 * restart on the same data dir.
 * Runs against every server in E2E_SERVERS (default kvstore,etcd).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ctlFor, makeTempDir, serverKinds, startMember, type BoundCtl, type Member } from '../support/processes.js';

const GO_DURATION = String.raw`(\d+(\.\d+)?(h|m|s|ms|µs|ns))+`;

interface StatusJson {
  Endpoint: string;
  Status: { header: { member_id: number; revision: number }; version: string; dbSize: number; leader: number; raftIndex: number; raftTerm: number };
}

for (const kind of serverKinds()) {
  void describe(`etcdctl maintenance commands against ${kind}`, () => {
    let member: Member;
    let ctl: BoundCtl;

    before(async () => {
      member = await startMember(kind, { name: 'maint' });
      ctl = ctlFor(member);
      await ctl.ok(['put', 'some', 'data']);
    });

    void it('endpoint health prints the healthy line on stderr and exits 0', async () => {
      const r = await ctl.run(['endpoint', 'health']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, new RegExp(`^${member.endpoint.replace(/\./g, '\\.')} is healthy: successfully committed proposal: took = ${GO_DURATION}\\n$`));
      const json = JSON.parse(await ctl.ok(['endpoint', 'health', '-w', 'json'])) as { endpoint: string; health: boolean }[];
      assert.deepEqual(json.map((h) => [h.endpoint, h.health]), [[member.endpoint, true]]);
    });

    void it('member list shows this member, started, with its URLs', async () => {
      const out = await ctl.ok(['member', 'list']);
      const m = /^([0-9a-f]{1,16}), started, maint, (\S+), (\S+), false\n$/.exec(out);
      assert.ok(m !== null, out);
      assert.deepEqual([m[2], m[3]], [member.peerUrl, member.clientUrl]);
      const json = JSON.parse(await ctl.ok(['member', 'list', '-w', 'json'])) as { members: { name: string; peerURLs: string[]; clientURLs: string[] }[] };
      assert.deepEqual(json.members.map((x) => [x.name, x.peerURLs, x.clientURLs]), [['maint', [member.peerUrl], [member.clientUrl]]]);
    });

    void it('endpoint status: this member is the leader, not a learner, with its id and version', async () => {
      const ids = await ctl.ok(['member', 'list']);
      const id = ids.split(',')[0];
      const out = await ctl.ok(['endpoint', 'status']);
      const m = /^(\S+), ([0-9a-f]+), (3\.\d+\.\d+), (\d+(\.\d+)? [kMG]?B), true, false, (\d+), (\d+), (\d+), \n$/.exec(out);
      assert.ok(m !== null, out);
      assert.equal(m[1], member.endpoint);
      assert.equal(m[2], id);
      assert.ok(Number(m[8]) <= Number(m[7]), 'applied index <= raft index');
      const [json] = JSON.parse(await ctl.ok(['endpoint', 'status', '-w', 'json'])) as StatusJson[];
      assert.equal(json.Endpoint, member.endpoint);
      assert.equal(json.Status.version, m[3]);
      assert.equal(json.Status.leader, json.Status.header.member_id, 'is-leader = leader == header.member_id');
      assert.ok(json.Status.dbSize > 0 && json.Status.raftTerm > 0 && json.Status.raftIndex > 0);
    });

    void it('alarm list prints nothing when no alarm is raised', async () => {
      assert.equal(await ctl.ok(['alarm', 'list']), '');
    });

    void it('defrag prints the finished line; the member keeps its data', async () => {
      assert.equal(await ctl.ok(['defrag']), `Finished defragmenting etcd member[${member.endpoint}]\n`);
      assert.equal(await ctl.ok(['get', 'some', '--print-value-only']), 'data\n');
    });

    void it('after a restart on the same data dir the member serves the same data and revision', async () => {
      await ctl.ok(['put', 'restart/a', 'kept']);
      const rev = await ctl.revision();
      await member.restart();
      assert.equal(await ctl.ok(['get', 'restart/a', '--print-value-only']), 'kept\n');
      assert.equal(await ctl.revision(), rev);
      assert.equal(await ctl.ok(['put', 'restart/a', 'next']), 'OK\n');
      assert.equal(await ctl.revision(), rev + 1);
    });

    void it('snapshot save writes a checksummed image and prints its path', async () => {
      const file = join(makeTempDir('snapshot'), 'snap.db');
      const r = await ctl.run(['snapshot', 'save', file]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `Snapshot saved at ${file}\n`);
      assert.ok(existsSync(file) && !existsSync(`${file}.part`));
      const bytes = readFileSync(file);
      assert.equal(bytes.length % 512, 32, 'image is a multiple of 512 bytes plus the SHA-256');
      const body = bytes.subarray(0, bytes.length - 32);
      assert.deepEqual(bytes.subarray(bytes.length - 32), createHash('sha256').update(body).digest());
    });
  });
}
