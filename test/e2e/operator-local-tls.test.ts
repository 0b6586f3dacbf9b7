/**
 * `kvstore-operator local` with spec.tls: the operator generates a CA, one certificate per
 * member and its own client certificate in `<cluster>.kvstore/tls/`, starts the members with
 * https client and peer URLs and client-certificate authentication, and runs a rolling upgrade
 * 3.4.0 → 3.5.0 over mutual TLS (probes, admin calls, the leader snapshot). A client with the
 * operator's certificate reads and writes; one without a certificate is refused; plain http
 * gets no answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type Client } from '../../ctl/client/index.js';
import { eventsWith, LocalOperator, statusIn, waitStatus, writeManifest } from '../operator/local/local-operator.js';

const MANIFEST = `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: sec
spec:
  size: 3
  version: 3.4.0 # the version every member runs
  tls:
    client: {}
    peer: {}
    operator: {}
  upgrade:
    v2WaitSeconds: 1
    memberHealthTimeoutSeconds: 90
`;

function tlsClient(clusterDir: string, urls: readonly string[], withCert: boolean): Client {
  const dir = join(clusterDir, 'tls');
  const ca = readFileSync(join(dir, 'ca.crt'));
  const tls = withCert ? { ca, cert: readFileSync(join(dir, 'operator.crt')), key: readFileSync(join(dir, 'operator.key')) } : { ca };
  return createClient({ endpoints: [...urls], dialTimeoutMs: 3000, commandTimeoutMs: 5000, tls });
}

void test('local mode with spec.tls: members on https with client certificates, a rolling upgrade over mutual TLS', async () => {
  const { file, clusterDir } = writeManifest(MANIFEST, 'sec');
  const op = new LocalOperator(file, clusterDir);
  const before = await waitStatus(file, 'Running at 3.4.0', (s) => s.phase === 'Running' && s.readyMembers === '3/3' && s.clusterVersion === '3.4.0', op);
  const urls = before.members.map((m) => m.clientURL);
  for (const u of urls) assert.match(u, /^https:\/\/127\.0\.0\.\d+:\d+$/);
  for (const f of ['ca.crt', 'ca.key', 'operator.crt', 'operator.key', 'sec-0.crt', 'sec-1.key']) assert.ok(existsSync(join(clusterDir, 'tls', f)), f);
  const log = readFileSync(join(clusterDir, 'sec-0.log'), 'utf8');
  for (const flag of ['--client-cert-auth=true', '--peer-client-cert-auth=true', '--listen-peer-urls=https://']) assert.ok(log.includes(flag), flag);

  const good = tlsClient(clusterDir, urls, true);
  const anonymous = tlsClient(clusterDir, urls, false);
  try {
    for (let i = 0; i < 20; i++) assert.ok((await good.kv.put(`tls/${i}`, `v${i}`)).ok);
    const refused = await anonymous.kv.get('tls/1');
    assert.equal(refused.ok, false, 'a client without a certificate is refused');
    const plain = await fetch(urls[0]!.replace('https:', 'http:') + '/version').then((r) => r.status, (e: Error) => e.message);
    assert.notEqual(plain, 200, 'plain http gets no answer');

    writeFileSync(file, readFileSync(file, 'utf8').replace('version: 3.4.0 #', 'version: 3.5.0 #'));
    const done = await waitStatus(file, 'upgrade Completed', (s) => s.upgrade?.state === 'Completed', op, 240_000);
    const snap = done.upgrade?.snapshot;
    assert.ok(snap !== undefined && existsSync(snap.file), 'the leader snapshot was streamed over mutual TLS');
    const bytes = readFileSync(snap.file);
    assert.equal(createHash('sha256').update(bytes.subarray(0, bytes.length - 32)).digest('hex'), snap.sha256);
    const events = await eventsWith(clusterDir, 'UpgradeCompleted');
    assert.equal(events.filter((e) => e.reason === 'MemberUpgraded').length, 3, events.map((e) => e.reason).join(' '));
    const final = await waitStatus(file, 'cluster version 3.5.0', (s) => s.clusterVersion === '3.5.0' && s.readyMembers === '3/3', op);
    assert.deepEqual(final.members.map((m) => m.clientURL), urls);

    const read = await good.kv.get('tls/', { prefix: true });
    assert.ok(read.ok);
    assert.equal(read.value.kvs.length, 20);
  } finally {
    good.close();
    anonymous.close();
  }
  assert.equal(await op.stop('SIGTERM'), 0);
  assert.equal(statusIn(file)?.upgrade?.state, 'Completed');
});
