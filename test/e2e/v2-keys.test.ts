/**
 * The v2 key space on a real kvstore member with --enable-v2: a /v2/keys round trip, TTL
 * expiry, the kvstore_v2_store_size_bytes gauge following the data, persistence across a
 * restart, and the refusal to start on a data dir with a log but no v3 database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startKvstore } from '../support/processes.js';

async function http(url: string, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method, body, headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {} });
  return { status: res.status, text: await res.text() };
}

async function gauge(base: string): Promise<number> {
  const { text } = await http(`${base}/metrics`);
  const line = text.split('\n').find((l) => l.startsWith('kvstore_v2_store_size_bytes '));
  assert.ok(line, 'kvstore_v2_store_size_bytes is exported');
  return Number(line.split(' ')[1]);
}

void test('v2 keys: round trip, TTL expiry, size gauge, restart, refusal without a v3 database', async () => {
  const m = await startKvstore({ args: ['--enable-v2'] });
  const base = m.clientUrl;
  const empty = await gauge(base);
  const set = await http(`${base}/v2/keys/greeting`, 'PUT', 'value=hello');
  assert.equal(set.status, 201);
  assert.match(set.text, /"action":"set","node":\{"key":"\/greeting","value":"hello"/);
  const got = await http(`${base}/v2/keys/greeting`);
  assert.equal(got.status, 200);
  assert.match(got.text, /"value":"hello"/);
  let grown = false;
  for (let i = 0; i < 50 && !grown; i++) {
    grown = (await gauge(base)) > empty;
    if (!grown) await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(grown, 'the gauge grows with the data');

  await http(`${base}/v2/keys/short?ttl=1`, 'PUT', 'value=x');
  let expired = false;
  for (let i = 0; i < 50 && !expired; i++) {
    expired = (await http(`${base}/v2/keys/short`)).status === 404;
    if (!expired) await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(expired, 'a key with a 1 s TTL expires');

  await m.restart();
  assert.match((await http(`${m.clientUrl}/v2/keys/greeting`)).text, /"value":"hello"/, 'v2 data survives a restart');

  await m.stop();
  await rm(join(m.dataDir, 'member', 'snap', 'db'), { recursive: true, force: true });
  await assert.rejects(m.restart(), 'a member with a log but no v3 database refuses to start');
  assert.match(m.logs(), /no v3 database/);
});
