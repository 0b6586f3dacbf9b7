// A member reached through another address (`--member-address-map`, port-forwards) whose
// certificate names only its advertised DNS name: the mapped URL carries that name
// (`#tls-server-name=`), and the HTTP probes and the gRPC calls verify the certificate against
// it; without it the same address fails verification.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { dialTarget, withServerName } from '../../../operator/controller/admin/dial-target.js';
import { createMemberAdmin } from '../../../operator/controller/admin/member-admin.js';
import { addressMapResolver } from '../../../operator/runtime/kube-platform/address-map.js';
import { issueCertificate, makeTlsFiles } from '../../support/tls-certs.js';

const NAME = 'demo-0.demo-peer.ns.svc';

void test('dial targets: the server name travels in the fragment', () => {
  assert.deepEqual(dialTarget('https://127.0.0.1:1'), { url: 'https://127.0.0.1:1' });
  assert.deepEqual(dialTarget(withServerName('https://127.0.0.1:1', NAME)), { url: 'https://127.0.0.1:1', serverName: NAME });
  assert.deepEqual(dialTarget('https://127.0.0.1:1#other'), { url: 'https://127.0.0.1:1' });
});

void test('address map: a mapped https client URL carries the advertised host as its TLS server name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'addr-map-'));
  try {
    const file = join(dir, 'map.json');
    writeFileSync(file, JSON.stringify({ [`${NAME}:2379`]: '127.0.0.5:4000', [`${NAME}:2380`]: '127.0.0.5:4001' }));
    const clients = addressMapResolver(file, { tlsServerName: true });
    assert.equal(await clients(`https://${NAME}:2379`), `https://127.0.0.5:4000#tls-server-name=${NAME}`);
    assert.equal(await clients(`http://${NAME}:2379`), 'http://127.0.0.5:4000', 'plaintext: nothing to verify');
    assert.equal(await addressMapResolver(file)(`https://${NAME}:2380`), 'https://127.0.0.5:4001', 'peer URLs are data: unchanged');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('probes and gRPC calls verify a mapped member against its advertised name', async () => {
  const files = await makeTlsFiles(['127.0.0.1']);
  const member = await issueCertificate(files, 'named-member', 'kvstore server', [], [NAME]);
  const serverTls = { cert: readFileSync(member.cert), key: readFileSync(member.key) };
  const https = createServer(serverTls, (_req, res) => res.end('{"health":"true"}'));
  await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
  const grpcServer = new grpc.Server();
  grpcServer.addService(pb.MaintenanceService, {
    status: (_call: unknown, cb: grpc.sendUnaryData<pb.StatusResponse>) => cb(null, pb.StatusResponse.fromJSON({ header: { member_id: '1', revision: '7' }, version: '3.4.27', leader: '1' })),
  });
  const grpcPort = await new Promise<number>((res, rej) =>
    grpcServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createSsl(null, [{ cert_chain: serverTls.cert, private_key: serverTls.key }], false), (e, p) => (e ? rej(e) : res(p))),
  );
  const admin = createMemberAdmin({ callTimeoutMs: 3000 }, { tls: { ca: readFileSync(files.caCert), cert: readFileSync(files.clientCert), key: readFileSync(files.clientKey) } });
  const httpsUrl = `https://127.0.0.1:${(https.address() as { port: number }).port}`;
  const grpcUrl = `https://127.0.0.1:${grpcPort}`;
  try {
    assert.deepEqual(await admin.health(withServerName(httpsUrl, NAME)), { ok: true, value: true });
    const unnamed = await admin.health(httpsUrl);
    assert.equal(unnamed.ok, false, 'the certificate does not name 127.0.0.1');
    const status = await admin.status(withServerName(grpcUrl, NAME));
    assert.ok(status.ok, JSON.stringify(status));
    assert.equal(status.value.revision, 7);
    assert.equal((await admin.status(grpcUrl)).ok, false, 'gRPC: the certificate does not name 127.0.0.1');
  } finally {
    admin.close();
    https.close();
    https.closeAllConnections();
    grpcServer.forceShutdown();
  }
});
