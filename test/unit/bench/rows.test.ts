// The row table: default rows per deployment, titles (one key vs distinct keys), sizing flags, host prefixes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROW_IDS, selectRows } from '../../../bench/rows.js';
import { checkHostPrefix, memberHosts } from '../../../bench/servers.js';

void test('defaults: the cluster adds 500 clients; both run cold, one-key, distinct-key and large-value puts, txn-put and watch', () => {
  assert.deepEqual(
    selectRows(undefined, 'cluster', {}).map((r) => r.id),
    ['put-1-cold', 'put-1', 'put-100', 'put-100-keys', 'put-500', 'put-8k', 'put-100k', 'put-1m', 'range-lin', 'range-ser', 'txn-put', 'watch-10k'],
  );
  assert.deepEqual(
    selectRows(undefined, 'single', {}).map((r) => r.id),
    ROW_IDS.filter((id) => id !== 'put-500'),
  );
});

void test('titles say how many clients and which keys', () => {
  const byId = new Map(selectRows([...ROW_IDS], 'cluster', {}).map((r) => [r.id, r]));
  assert.equal(byId.get('put-1')?.title, 'put, 1 client, one key');
  assert.equal(byId.get('put-100')?.title, 'put, 100 clients / 10 conns, one key');
  assert.equal(byId.get('put-100-keys')?.title, 'put, 100 clients / 10 conns, 100 k distinct keys');
  assert.equal(byId.get('range-lin')?.title, 'linearizable range, 100 clients / 10 conns, one key');
  assert.deepEqual(byId.get('put-100')?.load, { kind: 'put', keySpace: 1, sequentialKeys: false });
  assert.deepEqual(byId.get('put-100-keys')?.load, { kind: 'put', keySpace: 100_000, sequentialKeys: true });
  assert.equal(byId.get('watch-10k')?.unit, 'events');
  assert.equal(byId.get('put-1-cold')?.cold, true);
  assert.equal(byId.get('put-1')?.cold, false);
  assert.deepEqual(byId.get('put-100k')?.load, { kind: 'put', keySpace: 1000, sequentialKeys: true, valueBytes: 100 * 1024 });
  assert.equal(byId.get('put-1m')?.title, 'put 1 MiB values, 4 clients / 2 conns, 1 000 keys');
  assert.equal(byId.get('txn-put')?.unit, 'ops');
});

void test('--clients / --connections resize only the rows marked for it, in the given order', () => {
  const rows = selectRows(['range-ser', 'put-1', 'watch-10k'], 'single', { clients: 200, connections: 20 });
  assert.deepEqual(
    rows.map((r) => [r.id, r.clients, r.connections]),
    [
      ['range-ser', 200, 20],
      ['put-1', 1, 1],
      ['watch-10k', 50, 10],
    ],
  );
  assert.throws(() => selectRows(['put-7'], 'single', {}), /unknown row put-7/);
});

void test('members bind <prefix>.1.i (etcd) and <prefix>.2.i (kvstore), off the tests\' 127.0.0.x', () => {
  assert.deepEqual(memberHosts('etcd', 3, '127.77'), ['127.77.1.1', '127.77.1.2', '127.77.1.3']);
  assert.deepEqual(memberHosts('kvstore', 1, '127.77'), ['127.77.2.1']);
  assert.equal(checkHostPrefix('127.5'), '127.5');
  assert.throws(() => checkHostPrefix('10.0'), /--host-prefix/);
  assert.throws(() => checkHostPrefix('127.256'), /--host-prefix/);
});
