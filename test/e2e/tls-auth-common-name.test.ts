/**
 * With `--client-cert-auth` and auth enabled, the verified client certificate's Common Name is
 * the user (no token, no --user), for each server kind (kvstore, and the real etcd 3.4 as the
 * reference: both must print the same):
 * - root (CN=root) sets up a role that may read the prefix `a`, a user alice with that role, and
 *   enables auth;
 * - root's certificate alone writes; alice's certificate reads under `a` and is refused a write
 *   there and a read elsewhere with `etcdserver: permission denied`;
 * - a certificate whose CN names no user is refused (`etcdserver: permission denied`);
 * - a password (`--user`) still wins over the certificate;
 * - the Election service's inner calls run as the certificate's user (gRPC Leader: alice reads
 *   under `a`, is refused elsewhere).
 * etcdctl's unary calls reach kvstore's direct HTTP/2 path, so the CN is read there too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { ElectionClient } from '../../proto/gen/etcd/election.js';
import { etcdctl, reserveAddress, serverKinds, startMember, type Member, type MemberAddress } from '../support/processes.js';
import { CN_AUTH_SETUP, issueCertificate, makeTlsFiles, type TlsFiles } from '../support/tls-certs.js';

interface Cert {
  readonly cert: string;
  readonly key: string;
}

for (const kind of serverKinds()) {
  void describe(`${kind}: the client certificate's CN is the user when auth is enabled`, () => {
    let files: TlsFiles;
    let member: Member;
    let address: MemberAddress;
    let alice: Cert;
    let stranger: Cert;

    const as = async (who: Cert, args: readonly string[]): Promise<string> => {
      const r = await etcdctl(address.clientUrl, ['--cacert', files.caCert, '--cert', who.cert, '--key', who.key, '--dial-timeout=3s', '--command-timeout=5s', ...args]);
      // etcdctl logs its retries as JSON lines before the error; the error is the last line.
      return `${r.code} ${r.stdout.trim()} ${r.stderr.trim().split('\n').at(-1) ?? ''}`.trim();
    };
    const root = (): Cert => ({ cert: files.clientCert, key: files.clientKey });

    before(async () => {
      const plain = await reserveAddress(`${kind}-tls-cn`);
      address = { ...plain, clientUrl: `https://${plain.host}:${plain.clientPort}` };
      files = await makeTlsFiles([address.host]);
      alice = await issueCertificate(files, `${kind}-alice`, 'alice', []);
      stranger = await issueCertificate(files, `${kind}-nobody`, 'nobody', []);
      member = await startMember(kind, {
        address,
        waitReady: false,
        args: [`--cert-file=${files.serverCert}`, `--key-file=${files.serverKey}`, '--client-cert-auth', `--trusted-ca-file=${files.caCert}`],
      });
      for (let i = 0; (await as(root(), ['endpoint', 'health'])).startsWith('0 ') === false; i++) {
        if (i > 80 || !member.running) throw new Error(`${kind} not ready over TLS:\n${member.logs().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      for (const args of CN_AUTH_SETUP) {
        const out = await as(root(), args);
        assert.ok(out.startsWith('0 '), `${args.join(' ')}: ${out}`);
      }
    });

    after(async () => {
      await member?.stop('SIGTERM');
    });

    void it('root writes with its certificate alone', async () => {
      assert.equal(await as(root(), ['put', 'a1', 'v1']), '0 OK');
      assert.equal(await as(root(), ['put', 'b1', 'w1']), '0 OK');
    });

    void it("alice's certificate reads under her prefix and nothing more", async () => {
      assert.equal(await as(alice, ['get', 'a1']), '0 a1\nv1');
      assert.equal(await as(alice, ['put', 'a2', 'x']), '1  Error: etcdserver: permission denied');
      assert.equal(await as(alice, ['get', 'b1']), '1  Error: etcdserver: permission denied');
    });

    void it('a certificate whose CN names no user is refused', async () => {
      assert.equal(await as(stranger, ['get', 'a1']), '1  Error: etcdserver: permission denied');
    });

    void it('a password given with --user is used instead of the certificate', async () => {
      assert.equal(await as(alice, ['--user', 'root:rootpw', 'get', 'b1']), '0 b1\nw1');
      assert.equal(await as(stranger, ['--user', 'alice:alicepw', 'get', 'a1']), '0 a1\nv1');
    });

    void it("Election.Leader runs its reads as the certificate's user", async () => {
      const creds = credentials.createSsl(readFileSync(files.caCert), readFileSync(alice.key), readFileSync(alice.cert));
      const election = new ElectionClient(`${address.host}:${address.clientPort}`, creds);
      const leader = (name: string): Promise<string> =>
        new Promise((resolve) =>
          election.leader({ name: Buffer.from(name) }, new Metadata(), { deadline: Date.now() + 10_000 }, (e: ServiceError | null) => resolve(e ? `${e.code} ${e.details}` : 'ok')),
        );
      try {
        assert.equal(await leader('a'), '2 election: no leader');
        assert.equal(await leader('b'), '2 etcdserver: permission denied');
      } finally {
        election.close();
      }
    });
  });
}
