import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parseProxyCommand, type GatewayPlan, type GrpcProxyPlan } from '../../../server/proxy/proxy-flags.js';
import { commonName } from '../../../server/proxy/client-cert-name.js';
import { stopAll } from '../../support/processes.js';
import { issueCertificate, makeTlsFiles, type TlsFiles } from '../../support/tls-certs.js';

after(stopAll);

const noFiles = (p: string): Buffer => {
  throw new Error(`no such file ${p}`);
};

void describe('kvstore gateway start: flags', () => {
  void it('etcd\'s defaults: listen on 127.0.0.1:23790, forward to 127.0.0.1:2379, retry after a minute', () => {
    const plan = parseProxyCommand(['gateway', 'start'], noFiles) as GatewayPlan;
    assert.deepEqual(plan, { kind: 'gateway', listenHost: '127.0.0.1', listenPort: 23790, endpoints: [{ host: '127.0.0.1', port: 2379 }], retryDelayMs: 60_000 });
  });

  void it('flags before the start word, URLs as endpoints (the scheme is dropped), a repeated --endpoints adds', () => {
    const plan = parseProxyCommand(['gateway', '--endpoints=http://localhost:20000,http://localhost:20005', 'start', '--endpoints', '10.0.0.1:2379', '--retry-delay=5s'], noFiles) as GatewayPlan;
    assert.deepEqual(plan.endpoints, [
      { host: 'localhost', port: 20000 },
      { host: 'localhost', port: 20005 },
      { host: '10.0.0.1', port: 2379 },
    ]);
    assert.equal(plan.retryDelayMs, 5_000);
  });

  void it('bad values name the flag', () => {
    const bad = (argv: string[], pattern: RegExp): void => {
      const r = parseProxyCommand(argv, noFiles);
      assert.equal(r.kind, 'error');
      assert.match((r as { message: string }).message, pattern);
    };
    bad(['gateway', 'start', '--listen-addr=nowhere'], /--listen-addr "nowhere": expected host:port/);
    bad(['gateway', 'start', '--endpoints=a:1,b'], /--endpoints "b": expected host:port/);
    bad(['gateway', 'start', '--retry-delay=soon'], /--retry-delay "soon"/);
    bad(['gateway', 'start', '--endpoints=127.0.0.1:23790'], /should not resolve to the gateway listen addr/);
    bad(['gateway', 'start', '--no-such-flag'], /unknown option '--no-such-flag'/);
    bad(['gateway', 'start', '--discovery-srv=example.com'], /--discovery-srv is not supported/);
  });
});

void describe('kvstore grpc-proxy start: flags', () => {
  let files: TlsFiles;
  let named: { cert: string; key: string };
  let unnamed: { cert: string; key: string };
  const read = (p: string): Buffer => readFileSync(p);
  before(async () => {
    files = await makeTlsFiles(['127.0.0.1']);
    named = await issueCertificate(files, 'named', 'example2.com', ['127.0.0.1']);
    unnamed = await issueCertificate(files, 'unnamed', '', ['127.0.0.1']);
  });

  void it('refuses a client certificate with a Common Name, with etcd\'s message', () => {
    assert.equal(commonName(readFileSync(named.cert)), 'example2.com');
    assert.deepEqual(parseProxyCommand(['grpc-proxy', 'start', '--cert', named.cert, '--key', named.key, '--cacert', files.caCert], read), {
      kind: 'error',
      message: 'cert has non empty Common Name (example2.com)',
    });
  });

  void it('takes one without: TLS to the members with that identity', () => {
    assert.equal(commonName(readFileSync(unnamed.cert)), '');
    const plan = parseProxyCommand(['grpc-proxy', 'start', '--cert', unnamed.cert, '--key', unnamed.key, '--cacert', files.caCert, '--endpoints=https://127.0.0.1:2379'], read) as GrpcProxyPlan;
    assert.equal(plan.kind, 'grpc-proxy');
    assert.ok(plan.upstream.tls?.cert?.equals(readFileSync(unnamed.cert)));
    assert.deepEqual(plan.upstream.endpoints, ['https://127.0.0.1:2379']);
    assert.equal(plan.listenTls, undefined);
    assert.equal(plan.maxConcurrentStreams, undefined, 'unlimited by default');
  });

  void it('serving TLS, cipher suites by Go name; an unknown suite is refused as etcd refuses it', () => {
    const plan = parseProxyCommand(['grpc-proxy', 'start', `--cert-file=${unnamed.cert}`, `--key-file=${unnamed.key}`, '--listen-cipher-suites', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'], read) as GrpcProxyPlan;
    assert.equal(plan.listenTls?.ciphers, 'ECDHE-RSA-AES128-GCM-SHA256');
    const bad = parseProxyCommand(['grpc-proxy', 'start', '--listen-cipher-suites', 'TLS_NOPE'], read);
    assert.deepEqual(bad, { kind: 'error', message: 'unexpected TLS cipher suite "TLS_NOPE"' });
  });

  void it('what it does not do is refused by name, not ignored', () => {
    for (const [flag, name] of [['--namespace=ns/', '--namespace'], ['--metrics-addr=http://127.0.0.1:1', '--metrics-addr'], ['--resolver-prefix=p', '--resolver-prefix']] as const) {
      const r = parseProxyCommand(['grpc-proxy', 'start', flag], read);
      assert.equal(r.kind, 'error', flag);
      assert.ok((r as { message: string }).message.includes(name), flag);
    }
  });

  void it('a certificate file that cannot be read names the flag', () => {
    const r = parseProxyCommand(['grpc-proxy', 'start', '--cert', '/nonexistent/x.crt'], read);
    assert.match((r as { message: string }).message, /cannot read --cert \/nonexistent\/x\.crt/);
  });
});
