/**
 * kvstorectl vs etcdctl 3.4: endpoint health/status/hashkv (and --cluster), member list, alarm
 * list/disarm, defrag, move-leader, snapshot save, in every output format each supports; that
 * `snapshot save` leaves a checksummed image and no `.part` file; and `check perf` on a short run.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, startMember, type Member } from '../support/processes.js';
import { ctlDiffSuite, kvstorectl, type CtlCase } from '../unit/ctl/support/ctl-diff.js';

const MEMBER_ID = { id: /^([0-9a-f]+), started/ };
const TRANSFER: ReadonlyArray<readonly [RegExp, string]> = [[/transferred from [0-9a-f]+ to [0-9a-f]+/g, 'transferred from <id> to <id>']];

const CASES: readonly CtlCase[] = [
  {
    name: 'endpoint health, status and hashkv in every format; --cluster',
    setup: [['put', 'some', 'data']],
    readOnly: true,
    steps: [
      ['endpoint', 'health'],
      ['endpoint', 'health', '-w', 'json'],
      ['endpoint', 'health', '-w', 'fields'],
      { run: ['endpoint', 'health', '-w', 'table'], looseTable: true },
      ['endpoint', 'health', '-w', 'protobuf'],
      ['endpoint', 'health', '--cluster'],
      ['endpoint', 'status'],
      ['endpoint', 'status', '-w', 'json'],
      ['endpoint', 'status', '-w', 'fields'],
      ['endpoint', 'status', '-w', 'table'],
      ['endpoint', 'status', '--cluster'],
      ['endpoint', 'status', '-w', 'protobuf'],
      ['endpoint', 'hashkv'],
      ['endpoint', 'hashkv', '-w', 'json'],
      ['endpoint', 'hashkv', '-w', 'table'],
      ['endpoint', 'hashkv', '--cluster', '-w', 'fields'],
    ],
  },
  {
    name: 'endpoint commands with a second endpoint that is down',
    readOnly: true,
    steps: [
      ['--endpoints=127.0.0.1:1', 'endpoint', 'health', '--command-timeout=1s'],
      ['--endpoints=127.0.0.1:1', 'endpoint', 'status', '--command-timeout=1s'],
      ['--endpoints=127.0.0.1:1', 'endpoint', 'hashkv', '--command-timeout=1s'],
      ['--endpoints=127.0.0.1:1', 'get', 'k'],
    ],
  },
  {
    name: 'member list in every format',
    readOnly: true,
    steps: [
      ['member', 'list'],
      ['member', 'list', '-w', 'json'],
      ['member', 'list', '-w', 'fields'],
      ['member', 'list', '-w', 'table'],
      { run: ['member', 'list', '-w', 'protobuf'], binary: true },
      ['member', 'remove'],
      ['member', 'remove', 'zz'],
      ['member', 'update', '1234'],
      ['member', 'add'],
      ['member', 'add', 'n', 'http://127.0.0.1:1'],
      ['member', 'add', 'n'],
      ['member', 'promote', '1234'],
      ['member', 'remove', '1234'],
    ],
  },
  {
    name: 'alarm list and disarm with no alarm; defrag; compaction output',
    steps: [['alarm', 'list'], ['alarm', 'list', '-w', 'json'], ['alarm', 'disarm'], ['alarm', 'disarm', '-w', 'json'], ['alarm', 'list', 'x'], ['defrag'], ['defrag', '--cluster'], ['defrag', '-w', 'json']],
  },
  {
    name: 'move-leader to itself and to an unknown member',
    setup: [{ run: ['member', 'list'], capture: MEMBER_ID }],
    steps: [
      { run: ['move-leader', '{id}'], mask: TRANSFER },
      ['move-leader', '1234'],
      ['move-leader'],
      ['move-leader', 'zz'],
    ],
  },
  {
    name: 'snapshot save',
    setup: [['put', 'snap', 'shot']],
    steps: [['snapshot', 'save', '{tmp}/snap.db'], ['snapshot', 'save'], ['snapshot', 'save', '{tmp}/missing/dir/snap.db']],
  },
];

ctlDiffSuite('kvstorectl maintenance', CASES);

void describe('kvstorectl snapshot save and check perf on etcd', () => {
  let member: Member;
  before(async () => {
    member = await startMember('etcd', { name: 'snap' });
  });
  after(async () => {
    await member?.kill9();
  });

  void it('the image ends with the SHA-256 of the rest, has mode 0600, and no .part file remains', async () => {
    const file = join(makeTempDir('ctl-snap'), 'snap.db');
    const r = await kvstorectl(member.endpoint, ['snapshot', 'save', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `Snapshot saved at ${file}\n`);
    assert.ok(!existsSync(`${file}.part`));
    const bytes = readFileSync(file);
    assert.equal(bytes.length % 512, 32);
    assert.deepEqual(bytes.subarray(bytes.length - 32), createHash('sha256').update(bytes.subarray(0, bytes.length - 32)).digest());
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  void it('check perf: judges a short load, cleans up its keys, refuses a prefix in use', async () => {
    const r = await kvstorectl(member.endpoint, ['check', 'perf', '--duration=2']);
    assert.match(r.stdout, /^(PASS: Throughput is \d+ writes\/s|FAIL: Throughput too low: \d+ writes\/s)\n(PASS: Slowest request took|Slowest request took too long:) \d+\.\d{6}s\n(PASS: Stddev is|Stddev too high:) \d+\.\d{6}s\n(PASS|FAIL)\n$/);
    assert.equal(r.code, r.stdout.endsWith('PASS\n') ? 0 : 1, r.stderr);
    assert.equal((await kvstorectl(member.endpoint, ['get', '/etcdctl-check-perf/', '--prefix', '--keys-only'])).stdout, '');
    assert.equal((await kvstorectl(member.endpoint, ['put', '/etcdctl-check-perf/x', 'v'])).code, 0);
    const busy = await kvstorectl(member.endpoint, ['check', 'perf', '--duration=1']);
    assert.equal(busy.code, 3);
    assert.equal(busy.stderr, 'Error: prefix "/etcdctl-check-perf/" has keys. Delete with etcdctl del --prefix /etcdctl-check-perf/ first\n');
    assert.equal((await kvstorectl(member.endpoint, ['check', 'perf', '--load=x'])).stderr, 'Error: unknown load option x\n');
  });

  void it('more than one endpoint is refused', async () => {
    const r = await kvstorectl([member.endpoint, member.endpoint], ['snapshot', 'save', join(makeTempDir('ctl-snap'), 'x.db')]);
    assert.equal(r.code, 5);
    assert.match(r.stderr, /^Error: snapshot must be requested to one selected node, not multiple \[/m);
  });
});
