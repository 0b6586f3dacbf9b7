/**
 * After a load that might have crashed a member: is it still running, does `GET /health` over
 * HTTP/1.1 answer 200, does a plain gRPC Put then Range of that key work, and is its log (from
 * a given offset on) free of uncaught exceptions? The answer is a list of problems (empty: the
 * member still serves), each a line fit for an assertion message.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { Metadata } from '@grpc/grpc-js';
import { openClients } from './cancel-race-grpc.js';
import type { Member } from './server-process.js';

/**
 * What an uncaught exception or an unhandled 'error' event leaves in a Node process's stderr
 * (the error printed at the start of a line, and Node's version line after it); the member's own
 * pino records are JSON lines and never match.
 */
export const CRASH_TEXT = /^Node\.js v\d|^\S*Error( \[\w+\])?: |Unhandled 'error' event|uncaught ?exception/im;

function health(m: Member, ca: Buffer | undefined): Promise<number | string> {
  return new Promise((resolve) => {
    const url = `${m.clientUrl}/health`;
    const done = (res: { statusCode?: number; resume(): void }): void => {
      res.resume();
      resolve(res.statusCode ?? 0);
    };
    const req = ca === undefined
      ? httpRequest(url, { timeout: 5_000, agent: false }, done)
      : httpsRequest(url, { timeout: 5_000, agent: false, ca, ALPNProtocols: ['http/1.1'] } as RequestOptions, done);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

async function putThenRange(m: Member, ca: Buffer | undefined, tag: string): Promise<string | undefined> {
  const { kv, close } = openClients(m.endpoint, ca === undefined ? {} : { ca });
  const key = Buffer.from(`cancel-race/check/${tag}`);
  const deadline = (): { deadline: number } => ({ deadline: Date.now() + 10_000 });
  try {
    await new Promise<void>((resolve, reject) => {
      kv.put({ key, value: Buffer.from(tag), lease: 0n, prevKv: false, ignoreValue: false, ignoreLease: false }, new Metadata(), deadline(), (err) => (err ? reject(err) : resolve()));
    });
    const value = await new Promise<string | undefined>((resolve, reject) => {
      const req = {
        key, rangeEnd: Buffer.alloc(0), limit: 0n, revision: 0n, sortOrder: 0, sortTarget: 0, serializable: false, keysOnly: false,
        countOnly: false, minModRevision: 0n, maxModRevision: 0n, minCreateRevision: 0n, maxCreateRevision: 0n,
      };
      kv.range(req, new Metadata(), deadline(), (err, res) => (err ? reject(err) : resolve(res.kvs[0]?.value.toString())));
    });
    return value === tag ? undefined : `Range read back ${String(value)} instead of ${tag}`;
  } catch (err) {
    return `Put/Range failed: ${(err as Error).message}`;
  } finally {
    close();
  }
}

/** How long a member that still runs may take to answer again (it may be finishing the work of cancelled calls). */
const SETTLE_MS = 30_000;

/**
 * Problems of `m` after a phase; `logFrom` is the length of `m.logs()` when the phase began.
 * Waits a moment first, so a process that is dying has exited by the time it is looked at; a
 * member that still runs gets up to SETTLE_MS to answer both checks (timings are not asserted).
 */
export async function problemsAfter(m: Member, opts: { readonly ca?: Buffer; readonly logFrom: number; readonly tag: string }): Promise<string[]> {
  await Promise.race([m.exited(), sleep(300)]);
  const problems: string[] = [];
  const settleBy = Date.now() + SETTLE_MS;
  for (;;) {
    problems.length = 0;
    if (!m.running) {
      problems.push(`the member exited (code ${String(await m.exited())})`);
      break;
    }
    const status = await health(m, opts.ca);
    if (status !== 200) problems.push(`GET /health answered ${String(status)}`);
    const kv = await putThenRange(m, opts.ca, opts.tag);
    if (kv !== undefined) problems.push(kv);
    if (problems.length === 0 || Date.now() > settleBy) break;
    await sleep(500);
  }
  const log = m.logs().slice(opts.logFrom);
  const crash = CRASH_TEXT.exec(log);
  if (crash !== null) problems.push(`the log shows a crash:\n${log.slice(Math.max(0, crash.index - 1500), crash.index + 2500)}`);
  else if (!m.running) problems.push(`the log ends with:\n${log.slice(-3000)}`);
  return problems;
}
