/**
 * Every error a single member can produce through etcdctl 3.4 comes back with etcd's gRPC code
 * and exact message (read from etcdctl's retry-interceptor log line) and etcdctl's `Error:`
 * line; after each one the member keeps serving. Also the request size limit, default and set
 * with --max-request-bytes. Runs against every server in E2E_SERVERS (default kvstore,etcd).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ctlFor, errorLine, loggedGrpcError, serverKinds, startMember, type BoundCtl, type Member } from '../support/processes.js';

interface ErrorCase {
  readonly name: string;
  readonly args: readonly string[];
  readonly input?: string;
  readonly code: string;
  readonly message: string;
  /** etcdctl's `Error:` text when it is not the bare message. */
  readonly printed?: string;
}

const puts = (n: number) => Array.from({ length: n }, (_, i) => `put many/${i} v\n`).join('');

/** Run in order on one member prepared with `put hist v1` (rev 2), `put hist v2` (rev 3), `compaction 3`. */
const CASES: readonly ErrorCase[] = [
  { name: 'put with an empty key', args: ['put', '', 'v'], code: 'InvalidArgument', message: 'etcdserver: key is not provided' },
  { name: 'get with an empty key', args: ['get', ''], code: 'InvalidArgument', message: 'etcdserver: key is not provided' },
  { name: 'del with an empty key', args: ['del', ''], code: 'InvalidArgument', message: 'etcdserver: key is not provided' },
  { name: 'txn compare on an empty key', args: ['txn'], input: 'value("") = "1"\n\n\n\n', code: 'InvalidArgument', message: 'etcdserver: key is not provided' },
  { name: 'put --ignore-value on a missing key', args: ['put', 'absent', '--ignore-value'], code: 'InvalidArgument', message: 'etcdserver: key not found' },
  { name: 'get at a compacted revision', args: ['get', 'hist', '--rev=2'], code: 'OutOfRange', message: 'etcdserver: mvcc: required revision has been compacted' },
  { name: 'compaction at a compacted revision', args: ['compaction', '2'], code: 'OutOfRange', message: 'etcdserver: mvcc: required revision has been compacted' },
  { name: 'get at a future revision', args: ['get', 'hist', '--rev=100000'], code: 'OutOfRange', message: 'etcdserver: mvcc: required revision is a future revision' },
  { name: 'compaction at a future revision', args: ['compaction', '100000'], code: 'OutOfRange', message: 'etcdserver: mvcc: required revision is a future revision' },
  { name: 'txn range at a future revision', args: ['txn'], input: '\nget hist --rev=100000\n\n\n', code: 'OutOfRange', message: 'etcdserver: mvcc: required revision is a future revision' },
  { name: 'put with an unknown lease', args: ['put', 'k', 'v', '--lease=1234abcd'], code: 'NotFound', message: 'etcdserver: requested lease not found' },
  {
    name: 'revoke of an unknown lease',
    args: ['lease', 'revoke', '1234abcd'],
    code: 'NotFound',
    message: 'etcdserver: requested lease not found',
    printed: 'failed to revoke lease (etcdserver: requested lease not found)',
  },
  {
    name: 'grant of a too large TTL',
    args: ['lease', 'grant', '9000000001'],
    code: 'OutOfRange',
    message: 'etcdserver: too large lease TTL',
    printed: 'failed to grant lease (etcdserver: too large lease TTL)',
  },
  { name: 'txn with 129 operations', args: ['txn'], input: `\n${puts(129)}\n\n`, code: 'InvalidArgument', message: 'etcdserver: too many operations in txn request' },
  { name: 'txn putting one key twice', args: ['txn'], input: '\nput dup 1\nput dup 2\n\n\n', code: 'InvalidArgument', message: 'etcdserver: duplicate key given in txn request' },
  { name: 'txn putting a key it deletes', args: ['txn'], input: '\nput dup 1\ndel dup\n\n\n', code: 'InvalidArgument', message: 'etcdserver: duplicate key given in txn request' },
  { name: 'put over the default request limit (1.5 MiB)', args: ['put', 'big'], input: 'x'.repeat(1_600_000), code: 'InvalidArgument', message: 'etcdserver: request is too large' },
];

async function expectError(ctl: BoundCtl, c: ErrorCase): Promise<void> {
  const r = await ctl.fails(c.args, c.input === undefined ? {} : { input: c.input });
  assert.equal(r.code, 1, `${c.name}: exit status\n${r.stderr}`);
  assert.deepEqual(loggedGrpcError(r.stderr), { code: c.code, message: c.message }, `${c.name}: gRPC status\n${r.stderr}`);
  assert.equal(errorLine(r.stderr), c.printed ?? c.message, `${c.name}: printed error`);
}

for (const kind of serverKinds()) {
  void describe(`etcdctl errors against ${kind}`, () => {
    let member: Member;
    let ctl: BoundCtl;

    before(async () => {
      member = await startMember(kind, { name: 'errors' });
      ctl = ctlFor(member);
      await ctl.ok(['put', 'hist', 'v1']);
      await ctl.ok(['put', 'hist', 'v2']);
      await ctl.ok(['compaction', String(await ctl.revision())]);
    });

    for (const c of CASES) {
      void it(`${c.name}: ${c.code} "${c.message}", and the member keeps serving`, async () => {
        await expectError(ctl, c);
        assert.ok(member.running);
        assert.equal(await ctl.ok(['put', 'alive', c.name]), 'OK\n');
        assert.equal(await ctl.ok(['get', 'alive', '--print-value-only']), `${c.name}\n`);
      });
    }

    void it('a txn with 128 operations (the default max) succeeds', async () => {
      assert.equal((await ctl.ok(['txn'], { input: `\n${puts(128)}\n\n` })).split('\n')[0], 'SUCCESS');
    });

    void it('after all errors the member is healthy', async () => {
      const r = await ctl.run(['endpoint', 'health']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /is healthy: successfully committed proposal/);
    });
  });

  void describe(`--max-request-bytes against ${kind}`, () => {
    let ctl: BoundCtl;

    before(async () => {
      ctl = ctlFor(await startMember(kind, { name: 'limits', args: ['--max-request-bytes=8192'] }));
    });

    void it('a put below the limit succeeds; one above fails with request is too large; serving goes on', async () => {
      assert.equal(await ctl.ok(['put', 'small'], { input: 'y'.repeat(4096) }), 'OK\n');
      await expectError(ctl, { name: 'put over 8 KiB', args: ['put', 'large'], input: 'y'.repeat(16_384), code: 'InvalidArgument', message: 'etcdserver: request is too large' });
      assert.equal(await ctl.ok(['get', 'large']), '');
      assert.equal((await ctl.ok(['get', 'small', '--print-value-only'])).length, 4097);
    });
  });
}
