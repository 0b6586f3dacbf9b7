/**
 * Parsing of txn input lines (compares and requests) and of watch arguments, with etcdctl's
 * error texts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { argify } from '../../../ctl/commands/txn/argify.js';
import { parseCompare } from '../../../ctl/commands/txn/compare-parse.js';
import { parseRequest } from '../../../ctl/commands/txn/request-parse.js';
import { splitWatchArgs, watchTarget } from '../../../ctl/commands/watch/watch-args.js';

void describe('parseCompare', () => {
  void it('parses every target and operator', () => {
    const c = parseCompare('mod("a") > "3"');
    assert.ok(!('message' in c));
    assert.deepEqual([c.key.toString(), c.result, c.target, c.targetUnion], ['a', 1, 2, { $case: 'modRevision', value: 3n }]);
    const v = parseCompare('val("k\\x00") != "x y"');
    assert.ok(!('message' in v));
    assert.deepEqual([v.key, v.targetUnion], [Buffer.from('k\0'), { $case: 'value', value: Buffer.from('x y') }]);
    const l = parseCompare('lease("k") = "1f"');
    assert.ok(!('message' in l));
    assert.deepEqual(l.targetUnion, { $case: 'lease', value: 31n });
  });
  void it('reports malformed lines as etcdctl does', () => {
    assert.deepEqual(parseCompare('no parenthesis'), { message: 'malformed comparison: no parenthesis' });
    assert.deepEqual(parseCompare('value("a") = 1'), { message: 'malformed comparison: value("a") = 1; got value("a") = ""' });
    assert.deepEqual(parseCompare('value("a")="1"'), { message: 'malformed comparison: value("a")="1"; got value("a")  ""' });
    assert.deepEqual(parseCompare('bogus("a") = "1"'), { message: 'malformed comparison: bogus("a") = "1" (unknown target bogus)' });
    assert.deepEqual(parseCompare('version("a") = "x"'), { message: 'invalid txn compare request: version("a") = "x"' });
    assert.deepEqual(parseCompare('value("a") == "1"'), { message: 'Unknown result op', panic: true });
  });
});

void describe('argify and requests', () => {
  void it('splits words, double quotes with escapes, and single quotes the way etcdctl 3.4 does', () => {
    assert.deepEqual(argify('put "k 1" "v \\"q\\""'), ['put', 'k 1', 'v "q"']);
    assert.deepEqual(argify("put 'k1' 'hello world'"), ['put', 'k', 'h']);
  });
  void it('builds requests with their own flags; unknown requests are refused', async () => {
    const get = await parseRequest('get a --prefix --limit=2');
    assert.ok(!('usageError' in get));
    assert.equal(get.request?.$case, 'requestRange');
    assert.deepEqual(await parseRequest('foo a'), { usageError: 'invalid txn request: foo a', code: 3 });
    assert.deepEqual(await parseRequest('get'), { usageError: 'invalid txn compare request: get', code: 3 });
    assert.deepEqual(await parseRequest('put a'), { usageError: 'put command needs 1 argument and input from stdin or 2 arguments', code: 128 });
  });
});

void describe('watch arguments', () => {
  void it('key, range end, exec command after --', () => {
    assert.deepEqual(splitWatchArgs(['--endpoints=x', 'watch', 'k', '--', 'echo', 'hi'], ['k', 'echo', 'hi'], '', ''), { watchArgs: ['k'], execArgs: ['echo', 'hi'] });
    assert.deepEqual(splitWatchArgs(['watch', 'k', '--'], ['k'], '', ''), { error: 'bad number of arguments (found separator --, but no commands)' });
    assert.deepEqual(splitWatchArgs(['watch'], [], '', ''), { error: 'bad number of arguments' });
    assert.deepEqual(watchTarget(['a', 'b'], true), { error: '`range_end` and `--prefix` are mutually exclusive' });
    assert.deepEqual(watchTarget(['a', 'b'], false), { key: 'a', rangeEnd: 'b' });
  });
});
