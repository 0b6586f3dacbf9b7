/**
 * The "call cancelled right after it starts" race, black-box, on a real kvstore member in every
 * client-port mode (default, KVSTORE_CLIENT_THREADS=1), over http and
 * over https: a HEADERS frame followed at once by RST_STREAM(CANCEL) on the same stream must
 * never kill the member (reported: ERR_HTTP2_INVALID_STREAM thrown by `respond` in grpc-js's
 * `_verifyContentType` / `_respondWithError`, uncaught, exit 1). Three phases per member:
 * 1. raw frames (cancel-race-raw.ts): preface + SETTINGS + HEADERS (+ DATA) + RST_STREAM in one
 *    write, several streams per connection, or the RST a few ms later; every kind of method and
 *    every request our framing once relayed to grpc-js (gzip, bidi with grpc-timeout, text/plain
 *    or no content type, unknown methods), and an `:authority` holding the client URL;
 * 2. grpc-js (cancel-race-grpc.ts): unary, Watch, LeaseKeepAlive and Snapshot calls cancelled in
 *    the same tick, after setImmediate, or by a 1 ms deadline, plain and gzip-compressed;
 * 3. Go clientv3 (test/e2e/go/cancelrace): Get/Put with a 100 µs timeout or cancelled at once,
 *    watches and keep-alives cancelled at once.
 * After each phase the member must still run, answer GET /health (HTTP/1.1) with 200 and a gRPC
 * Put then Range, and its log must show no uncaught exception (member-still-serves.ts). A member
 * that died in one phase is restarted for the next, so each phase is judged on its own.
 *
 * CANCEL_RACE_SCALE (default 1) multiplies the counts; CANCEL_RACE_MODES (comma list of
 * `default`, `threads`) and CANCEL_RACE_TRANSPORTS (`http`, `https`) narrow the matrix.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { grpcCancelRace, openClients } from '../support/cancel-race-grpc.js';
import { rawCancelRace, REQUEST_KINDS, type RawTarget } from '../support/cancel-race-raw.js';
import { cancelRaceBinary, runGoCancelRace } from '../support/go-cancel-race.js';
import { problemsAfter } from '../support/member-still-serves.js';
import { reserveAddress, startKvstore, type Member } from '../support/processes.js';
import { makeTlsFiles, type TlsFiles } from '../support/tls-certs.js';

const SCALE = Number(process.env.CANCEL_RACE_SCALE ?? '1');
const RAW_CONNECTIONS = Math.round(REQUEST_KINDS.length * 16 * SCALE);
const GRPC_CALLS = Math.round(1000 * SCALE);
const GRPC_GZIP_CALLS = Math.round(300 * SCALE);
const GO_OPS = Math.round(120 * SCALE);

const MODES = [
  { id: 'default', title: 'default', env: {} },
  { id: 'threads', title: 'KVSTORE_CLIENT_THREADS=1', env: { KVSTORE_CLIENT_THREADS: '1' } },
] as const;
const TRANSPORTS = ['http', 'https'] as const;

function selected(variable: string, id: string): boolean {
  const list = process.env[variable];
  return list === undefined || list === '' || list.split(',').map((s) => s.trim()).includes(id);
}

/** A member under test and what a client needs to reach it. */
interface Subject {
  readonly member: Member;
  readonly tls: TlsFiles | undefined;
  readonly ca: Buffer | undefined;
}

/** Waits until the member serves (problemsAfter gives it up to 30 s), else fails with its log. */
async function waitServing(subject: Subject): Promise<void> {
  const problems = await problemsAfter(subject.member, { ...(subject.ca ? { ca: subject.ca } : {}), logFrom: subject.member.logs().length, tag: 'ready' });
  if (problems.length > 0) assert.fail(`member not serving: ${problems.join('; ')}\n${subject.member.logs().slice(-3000)}`);
}

async function startSubject(env: Readonly<Record<string, string>>, transport: 'http' | 'https'): Promise<Subject> {
  if (transport === 'http') {
    const member = await startKvstore({ env });
    return { member, tls: undefined, ca: undefined };
  }
  const plain = await reserveAddress(`cancel-race-tls-${env.KVSTORE_GRPC_HTTP2 ?? env.KVSTORE_CLIENT_THREADS ?? 'default'}`);
  const tls = await makeTlsFiles([plain.host]);
  const address = { ...plain, clientUrl: `https://${plain.endpoint}` };
  const member = await startKvstore({ env, address, waitReady: false, args: [`--cert-file=${tls.serverCert}`, `--key-file=${tls.serverKey}`] });
  const subject = { member, tls, ca: readFileSync(tls.caCert) };
  await waitServing(subject);
  return subject;
}

/**
 * Runs one phase and judges the member afterwards. A member that died before the phase (in an
 * earlier one) is restarted first.
 */
async function phase(subject: Subject, name: string, load: () => Promise<string>): Promise<void> {
  if (!subject.member.running) {
    await subject.member.restart({ waitReady: false });
    await waitServing(subject);
  }
  const logFrom = subject.member.logs().length;
  const summary = await load();
  const problems = await problemsAfter(subject.member, { ...(subject.ca ? { ca: subject.ca } : {}), logFrom, tag: name });
  assert.ok(problems.length === 0, `after ${name} (${summary}):\n${problems.join('\n')}`);
}

let goBinary: Promise<string> | undefined;

for (const mode of MODES.filter((m) => selected('CANCEL_RACE_MODES', m.id))) {
  for (const transport of TRANSPORTS.filter((t) => selected('CANCEL_RACE_TRANSPORTS', t))) {
    void describe(`cancel right after start: ${mode.title} over ${transport}`, () => {
      let subject: Subject;
      before(async () => {
        goBinary ??= cancelRaceBinary();
        subject = await startSubject(mode.env, transport);
      });
      after(async () => {
        await subject?.member.stop();
      });

      void it(`raw frames: ${RAW_CONNECTIONS} connections, HEADERS (+DATA) then RST_STREAM(CANCEL), at once or a few ms later`, { timeout: 60_000 }, async () => {
        const { host } = subject.member;
        const port = Number(subject.member.endpoint.split(':').pop());
        const target: RawTarget = subject.ca === undefined ? { host, port } : { host, port, tls: { ca: subject.ca } };
        await phase(subject, 'raw frames', async () => {
          const tally = await rawCancelRace(target, RAW_CONNECTIONS, 8, () => subject.member.running);
          return `${tally.connections} connections, ${tally.streams} streams, socket errors ${JSON.stringify(tally.errors)}`;
        });
      });

      void it(`grpc-js: ${GRPC_CALLS} calls + ${GRPC_GZIP_CALLS} gzip calls cancelled at once, after setImmediate, or by a 1 ms deadline`, { timeout: 60_000 }, async () => {
        await phase(subject, 'grpc-js', async () => {
          const codes: string[] = [];
          for (const gzip of [false, true]) {
            const clients = openClients(subject.member.endpoint, { ...(subject.ca ? { ca: subject.ca } : {}), gzip });
            try {
              const tally = await grpcCancelRace(clients, gzip ? GRPC_GZIP_CALLS : GRPC_CALLS, 32);
              codes.push(`${gzip ? 'gzip' : 'plain'} codes ${JSON.stringify(tally)}`);
            } finally {
              clients.close();
            }
          }
          return codes.join(', ');
        });
      });

      void it(`Go clientv3: ${GO_OPS} calls per phase with a 100 µs timeout or cancelled at once (Get, Put, Watch, LeaseKeepAlive)`, { timeout: 120_000 }, async () => {
        const binary = await goBinary!;
        await phase(subject, 'Go clientv3', async () => {
          const r = await runGoCancelRace(binary, subject.member.clientUrl, { ops: GO_OPS, ...(subject.tls ? { cacert: subject.tls.caCert } : {}) });
          return r.ok ? JSON.stringify(r.summary) : `the Go client failed: ${r.output.slice(-2000)}`;
        });
      });
    });
  }
}
