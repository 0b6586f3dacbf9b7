/**
 * The peer transport over TLS: members with certificates from one CA connect their streams,
 * exchange frames and stream a snapshot over https; a member whose certificate comes from
 * another CA is refused by the peer port (logged there) and never becomes active; an allowed
 * CN that does not match refuses the stream too; so does a client certificate whose SANs do not
 * name the address it dials from (unless the SAN check is skipped).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { ok, type Result } from '../../../server/errors/domain-error.js';
import type { PeerTls } from '../../../server/peer/types.js';
import { createTlsSource } from '../../../server/tls/tls-source.js';
import { issueCertificate, makeTlsFiles, type TlsFiles } from '../../support/tls-certs.js';
import { closeAll, recorder, startMember, waitConnected, waitUntil, type Member } from './harness.js';

const HOSTS = ['127.0.0.71', '127.0.0.72', '127.0.0.73'];
let ours: TlsFiles;
let foreign: TlsFiles;
const started: Member[] = [];

before(async () => {
  ours = await makeTlsFiles(HOSTS);
  foreign = await makeTlsFiles(HOSTS);
});
after(async () => {
  await closeAll(started);
});

async function peerTls(files: TlsFiles, name: string, cn: string, allowedCn = '', o: { dns?: readonly string[]; checkSan?: boolean } = {}): Promise<PeerTls> {
  const cert = await issueCertificate(files, name, cn, HOSTS, o.dns);
  const source = createTlsSource({
    files: { certFile: cert.cert, keyFile: cert.key, trustedCaFile: files.caCert, crlFile: '' },
    flags: { certFile: '--peer-cert-file', keyFile: '--peer-key-file', trustedCaFile: '--peer-trusted-ca-file', crlFile: '--peer-crl-file' },
    protocol: { ciphers: undefined, minVersion: 'TLSv1.2', maxVersion: undefined },
    skipVerify: false,
    logger: pino({ level: 'silent' }),
  });
  await source.load();
  const checkClientSan = o.checkSan === false ? undefined : { resolve: (n: string) => Promise.resolve(n === 'localhost' ? ['127.0.0.1'] : []) };
  return { accept: { source, requireClientCert: true, allowedCn, allowedHostname: '', checkClientSan }, dial: source.clientOptions };
}

void test('two members of one CA: streams, frames and a snapshot over https; a foreign CA is refused', async () => {
  let snapshotBytes = 0;
  const a = await startMember({ id: 1n, host: HOSTS[0]!, tls: await peerTls(ours, 'peer-a', 'member-a') });
  const b = await startMember({
    id: 2n,
    host: HOSTS[1]!,
    tls: await peerTls(ours, 'peer-b', 'member-b'),
    handlers: recorder(async (_from, _meta, body): Promise<Result<void>> => {
      for await (const c of body) snapshotBytes += (c as Buffer).length;
      return ok(undefined);
    }),
  });
  started.push(a, b);
  assert.match(a.url(), /^https:\/\//);
  a.transport.addPeer(2n, [b.url()]);
  b.transport.addPeer(1n, [a.url()]);
  await waitConnected([a, b]);
  a.transport.send(2n, Buffer.from('over tls'));
  await waitUntil(() => (b.handlers.frames.get(1n) ?? []).some((f) => f.toString() === 'over tls'), 'the frame over TLS');
  const body = (async function* () {
    for (let i = 0; i < 16; i++) yield Buffer.alloc(64 * 1024, i);
  })();
  const sent = await a.transport.sendSnapshot(2n, Buffer.from('{"index":1}'), body);
  assert.ok(sent.ok, JSON.stringify(sent));
  assert.equal(snapshotBytes, 16 * 64 * 1024);

  const stranger = await startMember({ id: 3n, host: HOSTS[2]!, tls: await peerTls(foreign, 'peer-c', 'member-c') });
  started.push(stranger);
  stranger.transport.addPeer(1n, [a.url()]);
  await waitUntil(() => a.logs.find('rejected peer connection').length > 0, 'the peer port refusing the foreign certificate');
  assert.equal(stranger.transport.activeSince(1n), undefined);
});

void test('--peer-cert-allowed-cn: a certificate of the right CA with another CN is refused', async () => {
  const a = await startMember({ id: 11n, host: HOSTS[0]!, tls: await peerTls(ours, 'peer-a2', 'member-a', 'member-x') });
  const b = await startMember({ id: 12n, host: HOSTS[1]!, tls: await peerTls(ours, 'peer-b2', 'member-b') });
  started.push(a, b);
  b.transport.addPeer(11n, [a.url()]);
  await waitUntil(() => a.logs.find('rejected peer connection').some((l) => /CN "member-b" is not "member-x"/.test(String(l.reason))), 'the CN refusal');
  assert.equal(b.transport.activeSince(11n), undefined);
});

void test('peer client SAN check: a certificate not naming the dialling address is refused, unless skipped', async () => {
  // Dials to 127.0.0.x leave from 127.0.0.1: certificates without `localhost` do not name it.
  const a = await startMember({ id: 21n, host: HOSTS[0]!, tls: await peerTls(ours, 'peer-a3', 'member-a') });
  const b = await startMember({ id: 22n, host: HOSTS[1]!, tls: await peerTls(ours, 'peer-b3', 'member-b', '', { dns: [] }) });
  started.push(a, b);
  b.transport.addPeer(21n, [a.url()]);
  await waitUntil(() => a.logs.find('rejected peer connection').some((l) => /certificate is valid for 127\.0\.0\.71, 127\.0\.0\.72, 127\.0\.0\.73, not /.test(String(l.reason))), 'the SAN refusal');
  assert.equal(b.transport.activeSince(21n), undefined);

  const lenient = await startMember({ id: 23n, host: HOSTS[2]!, tls: await peerTls(ours, 'peer-c3', 'member-c', '', { checkSan: false }) });
  started.push(lenient);
  b.transport.addPeer(23n, [lenient.url()]);
  lenient.transport.addPeer(22n, [b.url()]);
  await waitUntil(() => b.transport.activeSince(23n) !== undefined, 'the stream to a member that skips the SAN check');
});
