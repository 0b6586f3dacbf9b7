// The server logger: zap-like JSON lines, level filtering, child fields, outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { child, createLogger } from '../../../server/log/logger.js';

function capture(level = 'debug', name?: string) {
  const lines: string[] = [];
  const destination = { write: (s: string) => void lines.push(s) };
  const logger = createLogger({ level, outputs: [], destination, ...(name === undefined ? {} : { name }) });
  const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, parsed };
}

void test('a line is level, ts, msg, then fields', () => {
  const { logger, lines, parsed } = capture();
  logger.info({ 'member-id': '8e9e05c52164694d', term: 2 }, 'became leader');
  assert.equal(lines.length, 1);
  assert.ok(lines[0]?.endsWith('\n'));
  const [line] = parsed();
  assert.deepEqual(Object.keys(line ?? {}), ['level', 'ts', 'msg', 'member-id', 'term']);
  assert.equal(line?.level, 'info');
  assert.match(String(line?.ts), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(line?.msg, 'became leader');
});

void test('calling forms: printf, object only, Error first', () => {
  const { logger, parsed } = capture();
  logger.info('took %dms for %s', 12, 'apply');
  logger.debug({ a: 1 });
  logger.error(new Error('disk full'), 'failed to save');
  logger.warn(new Error('plain'));
  const [printf, objOnly, withErr, errOnly] = parsed();
  assert.equal(printf?.msg, 'took 12ms for apply');
  assert.deepEqual(Object.keys(objOnly ?? {}), ['level', 'ts', 'a']);
  assert.equal(withErr?.msg, 'failed to save');
  assert.equal((withErr?.err as { message: string }).message, 'disk full');
  assert.equal(errOnly?.msg, 'plain');
});

void test('levels filter; panic passes only fatal', () => {
  const all = ['debug', 'info', 'warn', 'error', 'fatal'] as const;
  const seen = (level: string) => {
    const { logger, parsed } = capture(level);
    for (const l of all) logger[l](l);
    return parsed().map((p) => p.level);
  };
  assert.deepEqual(seen('debug'), ['debug', 'info', 'warn', 'error', 'fatal']);
  assert.deepEqual(seen('info'), ['info', 'warn', 'error', 'fatal']);
  assert.deepEqual(seen('warn'), ['warn', 'error', 'fatal']);
  assert.deepEqual(seen('error'), ['error', 'fatal']);
  assert.deepEqual(seen('panic'), ['fatal']);
  assert.deepEqual(seen('fatal'), ['fatal']);
  assert.throws(() => createLogger({ level: 'verbose', outputs: [] }), /unknown log level "verbose"/);
});

void test('name and child fields come after msg; children do not change their parent', () => {
  const { logger, parsed } = capture('info', 'kvstore');
  const raft = child(logger, { component: 'raft' });
  const peer = child(raft, { 'remote-peer-id': 'abc' });
  peer.warn({ extra: true }, 'lost the TCP streaming connection with peer');
  raft.info('tick');
  logger.info('root');
  const [a, b, c] = parsed();
  assert.deepEqual(Object.keys(a ?? {}), ['level', 'ts', 'msg', 'name', 'component', 'remote-peer-id', 'extra']);
  assert.deepEqual(b, { level: 'info', ts: b?.ts, msg: 'tick', name: 'kvstore', component: 'raft' });
  assert.deepEqual(c, { level: 'info', ts: c?.ts, msg: 'root', name: 'kvstore' });
});

void test('file outputs are appended to (directories created)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvstore-log-'));
  try {
    const file = join(dir, 'sub', 'server.log');
    createLogger({ level: 'info', outputs: [file] }).info('first');
    createLogger({ level: 'info', outputs: [file] }).info('second');
    const msgs = readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { msg: string }).msg);
    assert.deepEqual(msgs, ['first', 'second']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('stdout goes to fd 1, default/stderr to fd 2, several outputs all receive the line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kvstore-log-'));
  try {
    const file = join(dir, 'x.log');
    const moduleUrl = new URL('../../../server/log/logger.js', import.meta.url).href;
    const script = (outputs: string[]) =>
      `import { createLogger } from ${JSON.stringify(moduleUrl)}; createLogger({ level: 'info', outputs: ${JSON.stringify(outputs)} }).info('hi');`;
    const runWith = (outputs: string[]) => spawnSync(process.execPath, ['--input-type=module', '-e', script(outputs)], { encoding: 'utf8' });
    const toStdout = runWith(['stdout']);
    assert.match(toStdout.stdout, /"msg":"hi"/);
    assert.equal(toStdout.stderr, '');
    const toDefault = runWith(['default']);
    assert.match(toDefault.stderr, /"msg":"hi"/);
    assert.equal(toDefault.stdout, '');
    const both = runWith(['stderr', 'stdout', file]);
    assert.match(both.stdout, /"msg":"hi"/);
    assert.match(both.stderr, /"msg":"hi"/);
    assert.match(readFileSync(file, 'utf8'), /"msg":"hi"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test("pino's own child() also writes bound fields after msg", () => {
  const { logger, parsed } = capture('info', 'kvstore');
  const a = logger.child({ 'local-member-id': '8e9e05c52164694d' });
  const b = a.child({ component: 'raft' });
  a.info('starting a new member');
  b.info({ term: 1 }, 'elected');
  const [first, second] = parsed();
  assert.deepEqual(Object.keys(first ?? {}), ['level', 'ts', 'msg', 'name', 'local-member-id']);
  assert.deepEqual(Object.keys(second ?? {}), ['level', 'ts', 'msg', 'name', 'local-member-id', 'component', 'term']);
});
