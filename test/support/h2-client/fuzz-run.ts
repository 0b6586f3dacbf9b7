/**
 * Runs fuzz connection scripts (fuzz-frames.ts) against a member, checks the member after each
 * batch, and shrinks a script that kills it.
 *
 * - `runScript` opens one connection, writes the script's bytes in the script's pieces, and
 *   lingers until the server closes or `lingerMs` passes; it never throws for what the server
 *   does (a refused or reset connection is an answer like any other).
 * - `memberTrouble` → undefined while the member runs, answers `GET /health` with 200 and a gRPC
 *   call on a new connection; otherwise why not.
 * - `shrink` replays a killing script with units removed one at a time (restarting the member
 *   whenever it is down), keeping each removal after which the script still kills it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { H2Client } from './connection.js';
import { scriptBytes, type ConnectionScript } from './fuzz-frames.js';
import { healthStatus, type ModeMember } from './modes.js';
import { assertMemberServes } from './suite.js';

export async function runScript(m: ModeMember, script: ConnectionScript, lingerMs = 150): Promise<void> {
  let c: H2Client;
  try {
    c = await H2Client.open(m.target, { preface: false, settings: null, handshake: false });
  } catch {
    return; // refused or failed TLS: the member's health check tells whether that matters
  }
  try {
    await c.writeSplit(scriptBytes(script), script.cuts);
    await c.waitUntil('the close', () => (c.closed ? true : undefined), lingerMs).catch(() => undefined);
  } finally {
    c.close();
  }
}

/** Why the member is not serving, or undefined when it is. One retry absorbs a slow moment. */
export async function memberTrouble(m: ModeMember): Promise<string | undefined> {
  let reason: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!m.member.running) return 'the member exited';
    try {
      await assertMemberServes(m);
      return undefined;
    } catch (err) {
      reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
      await sleep(500);
    }
  }
  return m.member.running ? `the member stopped answering: ${reason}` : 'the member exited';
}

/** Makes sure the member serves again: restarts it (SIGKILL first when it still runs) and waits. */
export async function revive(m: ModeMember): Promise<void> {
  if ((await memberTrouble(m)) === undefined) return;
  if (m.member.running) await m.member.kill9();
  await m.member.restart({ waitReady: false });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if ((await healthStatus(m.target).catch(() => 0)) === 200 && (await memberTrouble(m)) === undefined) return;
    if (!m.member.running || Date.now() > deadline) throw new Error(`the member did not come back:\n${m.member.logs().slice(-3000)}`);
    await sleep(200);
  }
}

/** The member's log tail right after the last script that `kills` saw kill it. */
const killLogs = new WeakMap<ModeMember, string>();

export function lastKillLog(m: ModeMember): string {
  return killLogs.get(m) ?? '';
}

/** Whether `script`, run alone on a serving member, leaves it not serving. */
export async function kills(m: ModeMember, script: ConnectionScript): Promise<boolean> {
  await revive(m);
  await runScript(m, script, 500);
  await sleep(200);
  if ((await memberTrouble(m)) === undefined) return false;
  killLogs.set(m, m.member.logs().slice(-2500));
  return true;
}

/** The smallest script (by removing units one at a time) that still kills the member. */
export async function shrink(m: ModeMember, script: ConnectionScript, maxTrials = 80): Promise<ConnectionScript> {
  let best = script;
  let trials = 0;
  for (let i = best.units.length - 1; i >= 0 && trials < maxTrials; i--) {
    const units = best.units.filter((_, j) => j !== i);
    const total = units.reduce((n, u) => n + u.bytes.length, 0);
    const candidate: ConnectionScript = { seed: best.seed, units, cuts: best.cuts.filter((c) => c < total) };
    trials++;
    if (await kills(m, candidate)) best = candidate;
  }
  await revive(m);
  return best;
}
