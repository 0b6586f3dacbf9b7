/**
 * kvstorectl's command line without a server: global flags and environment, usage errors and
 * exit codes, output of commands that need no answer, and printing of answers in each format.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveGlobal } from '../../../ctl/cli/global-options.js';
import type { CtlIO } from '../../../ctl/cli/io.js';
import { runCtl } from '../../../ctl/cli/program.js';
import { makePrinter } from '../../../ctl/printer/index.js';

function fakeIO(stdin = '', env: Record<string, string> = {}): { io: CtlIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: CtlIO = {
    stdout: { write: (c) => void (out += typeof c === 'string' ? c : Buffer.from(c).toString('latin1')) },
    stderr: { write: (c) => void (err += typeof c === 'string' ? c : Buffer.from(c).toString('latin1')) },
    stderrIsTTY: false,
    stdin: (async function* () {
      if (stdin !== '') yield Buffer.from(stdin);
    })(),
    env,
    interrupt: new AbortController().signal,
    claimInterrupt: () => undefined,
    now: () => 0,
    monotonicNs: () => 0n,
    randomUUID: () => '00000000-0000-0000-0000-000000000000',
  };
  return { io, out: () => out, err: () => err };
}

void describe('runCtl without a server', () => {
  void it('version needs no server', async () => {
    const f = fakeIO();
    assert.equal(await runCtl(['version'], f.io), 0);
    assert.equal(f.out(), 'kvstorectl version: 3.4.23\nAPI version: 3.4\n');
  });
  void it('argument errors exit 128 before any connection, with etcdctl texts', async () => {
    for (const [argv, msg] of [
      [['put'], 'put command needs 1 argument and input from stdin or 2 arguments'],
      [['get'], 'get command needs one argument as key and an optional argument as range_end'],
      [['del', 'a', 'b', 'c'], 'del command needs one argument as key and an optional argument as range_end'],
      [['lease', 'revoke', 'zz'], 'bad lease ID arg (strconv.ParseInt: parsing "zz": invalid syntax), expecting ID in Hex'],
      [['member', 'remove'], 'member ID is not provided'],
      [['snapshot', 'save'], 'snapshot save expects one argument'],
      [['move-leader'], 'move-leader command needs 1 argument'],
    ] as const) {
      const f = fakeIO();
      assert.equal(await runCtl(['--endpoints=127.0.0.1:1', ...argv], f.io), 128, argv.join(' '));
      assert.equal(f.err(), `Error: ${msg}\n`);
    }
  });
  void it('usage errors of the parser exit 1; unknown output format exits 4', async () => {
    let f = fakeIO();
    assert.equal(await runCtl(['get', 'a', '--bogus'], f.io), 1);
    assert.equal(f.err(), 'Error: unknown flag: --bogus\n');
    f = fakeIO();
    assert.equal(await runCtl(['get', 'a', '-w', 'xml'], f.io), 4);
    assert.equal(f.err(), 'Error: unsupported output format\n');
    f = fakeIO();
    assert.equal(await runCtl(['get', 'a', '--dial-timeout=x'], f.io), 1);
    assert.equal(f.err(), 'Error: invalid argument "x" for "--dial-timeout" flag: time: invalid duration "x"\n');
  });
  void it('txn reads and validates its input before connecting', async () => {
    const f = fakeIO('value("a") = 1\n\n\n\n');
    assert.equal(await runCtl(['--endpoints=127.0.0.1:1', 'txn'], f.io), 3);
    assert.equal(f.err(), 'Error: malformed comparison: value("a") = 1; got value("a") = ""\n');
    const g = fakeIO('\nput a 1\n\n');
    assert.equal(await runCtl(['--endpoints=127.0.0.1:1', 'txn', '-i'], g.io), 3);
    assert.equal(g.out(), 'compares:\nsuccess requests (get, put, del):\nfailure requests (get, put, del):\n');
    assert.equal(g.err(), 'Error: EOF\n');
  });
});

void describe('global flags', () => {
  void it('flags win over KVSTORECTL_* variables, which win over defaults', () => {
    const g = resolveGlobal({ writeOut: 'json' }, { KVSTORECTL_WRITE_OUT: 'fields', KVSTORECTL_ENDPOINTS: 'a:1,b:2', KVSTORECTL_DIAL_TIMEOUT: '3s', KVSTORECTL_HEX: 'true' });
    assert.ok(!('message' in g));
    assert.deepEqual([g.writeOut, g.endpoints, g.dialTimeoutMs, g.commandTimeoutMs, g.hex, g.commandTimeoutSet], ['json', ['a:1', 'b:2'], 3000, 5000, true, false]);
    const u = resolveGlobal({ user: 'root:pw' }, {});
    assert.ok(!('message' in u));
    assert.deepEqual([u.user, u.password], ['root', 'pw']);
  });
});

void describe('printers', () => {
  const header = { clusterId: 1n, memberId: 2n, revision: 3n, raftTerm: 4n };
  const kv = { key: Buffer.from('k'), createRevision: 2n, modRevision: 3n, version: 1n, value: Buffer.from('v'), lease: 0n };
  const render = (format: 'simple' | 'json' | 'fields' | 'table' | 'protobuf', fn: (p: ReturnType<typeof makePrinter>) => unknown): string => {
    let out = '';
    const p = makePrinter(format, { out: { write: (c) => void (out += typeof c === 'string' ? c : Buffer.from(c).toString('latin1')) }, err: { write: () => undefined }, hex: false, valueOnly: false });
    const r = fn(p);
    return r === undefined ? out : JSON.stringify(r);
  };
  void it('get in each format', () => {
    const resp = { header, kvs: [kv], more: false, count: 1n };
    assert.equal(render('simple', (p) => p.get(resp)), 'k\nv\n');
    assert.equal(render('json', (p) => p.get(resp)), '{"header":{"cluster_id":1,"member_id":2,"revision":3,"raft_term":4},"kvs":[{"key":"aw==","create_revision":2,"mod_revision":3,"version":1,"value":"dg=="}],"count":1}\n');
    assert.match(render('fields', (p) => p.get(resp)), /^"ClusterID" : 1\n"MemberID" : 2\n"Revision" : 3\n"RaftTerm" : 4\n"Key" : "k"\n/);
    assert.equal(render('table', (p) => p.get(resp)), '{"code":4,"message":"table not supported as output format"}');
  });
  void it('lease answers: simple lines and json with the header flattened', () => {
    assert.equal(render('simple', (p) => p.grant({ header, ID: 0x1234n, TTL: 10n, error: '' })), 'lease 0000000000001234 granted with TTL(10s)\n');
    assert.equal(render('simple', (p) => p.timeToLive({ header, ID: 0x1234n, TTL: -1n, grantedTTL: 0n, keys: [] }, false)), 'lease 0000000000001234 already expired\n');
    assert.equal(render('json', (p) => p.keepAlive({ header, ID: 5n, TTL: 10n })), '{"cluster_id":1,"member_id":2,"revision":3,"raft_term":4,"ID":5,"TTL":10}\n');
    assert.equal(Buffer.from(render('protobuf', (p) => p.grant({ header, ID: 5n, TTL: 10n, error: '' })), 'latin1').toString('hex'), '0801100218032004');
  });
});
