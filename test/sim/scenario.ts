/**
 * One seed of the cluster simulation: a random cluster (3 or 5 members, pre-vote on or off,
 * disk speed, snapshot frequency, whether membership changes), clients issuing puts, gets,
 * deletes, compare-and-swaps, lease grants / leased puts / revokes and a few v2 writes, and the random fault schedule of
 * faults.ts. Then the network heals, every active member restarts, and the run must
 * converge: a write succeeds, one leader leads every member at one applied index, and a
 * final linearizable read of every key on every member is answered. Invariants are checked
 * after every step, applied states are compared every 500 virtual ms and at the end, and
 * the client history must be linearizable with consistent revisions.
 *
 * Everything is derived from the seed: `runSeed(s)` twice gives the same trace digest. A
 * seed names a run of this generator as it is: changing the generator changes every run.
 */
import { createHash } from 'node:crypto';
import { checkKvHistory } from './checks/kv-history.js';
import { describeOp, type KvInput, type OpRecord } from './world/history.js';
import { KvClient, v2Put } from './world/kv-client.js';
import { Prng } from './world/prng.js';
import { randomConditions, scheduleFaults, upIds } from './faults.js';
import { CALM } from './world/sim-network.js';
import { SimFailure, World, describeError } from './world/world.js';

export interface ScenarioOptions {
  /** Virtual ms of client load and faults. */
  readonly chaosMs?: number;
  /** Virtual ms allowed, after healing, for the cluster to converge. */
  readonly convergeMs?: number;
  /** Print every trace line as it happens (debugging one seed). */
  readonly echo?: boolean;
  /** Let the network duplicate forwarded proposals (outside the transport's contract). */
  readonly duplicateProposals?: boolean;
  /** Backend writes resolve in the microtask that issued them (MemoryBackend as is). */
  readonly immediateBackendWrites?: boolean;
  /** Clients also make v2 writes (default true; false gives the runs of the generator before v2 writes). */
  readonly v2Writes?: boolean;
  /** Clients also grant, attach and revoke leases (default true; false gives the runs of the generator before leases). */
  readonly leases?: boolean;
}

export interface SeedResult {
  readonly seed: number;
  readonly failure: SimFailure | undefined;
  /** Digest of the trace and the history: equal for two runs of one seed. */
  readonly digest: string;
  readonly summary: string;
}

const KEYS = ['k0', 'k1', 'k2'];

/** What a client does besides plain KV operations. */
interface ClientMix {
  readonly v2Writes: boolean;
  readonly leases: boolean;
}

/**
 * A lease operation on `key` instead of a plain one, now and then: grant a new lease for
 * the key, put with the key's latest lease, or revoke it (lease ids are unique per client).
 */
function leaseInput(rng: Prng, clientId: number, seq: number, key: string, leases: Map<string, string>, value: string): KvInput | undefined {
  if (!rng.chance(0.15)) return undefined;
  const lease = leases.get(key);
  const roll = rng.float();
  if (lease === undefined || roll < 0.3) {
    const fresh = String(clientId * 1_000_000 + seq);
    leases.set(key, fresh);
    return { kind: 'grant', lease: fresh };
  }
  if (roll < 0.75) return { kind: 'putl', value, lease };
  return { kind: 'revoke', lease };
}

async function runClient(w: World, client: KvClient, rng: Prng, home: bigint, untilMs: number, mix: ClientMix): Promise<void> {
  let seq = 0;
  const seen = new Map<string, string | null>();
  const leases = new Map<string, string>();
  const leaseRng = rng.fork('leases');
  while (w.now < untilMs) {
    await w.sleep(rng.between(0, 150));
    if (w.now >= untilMs) return;
    const up = upIds(w);
    if (up.length === 0) continue;
    const node = up.includes(home) && rng.chance(0.8) ? home : rng.pick(up);
    if (mix.v2Writes && rng.chance(0.05)) {
      await v2Put(w, node, `/v2/${rng.pick(KEYS)}`, `c${client.id}.v2.${++seq}`);
      continue;
    }
    const key = rng.pick(KEYS);
    const roll = rng.float();
    const value = `c${client.id}.${++seq}`;
    const plain: KvInput =
      roll < 0.35
        ? { kind: 'put', value }
        : roll < 0.7
          ? { kind: 'get' }
          : roll < 0.9
            ? { kind: 'cas', expect: rng.chance(0.8) ? (seen.get(key) ?? null) : null, value }
            : { kind: 'del' };
    const input = (mix.leases ? leaseInput(leaseRng, client.id, seq, key, leases, value) : undefined) ?? plain;
    const op = await client.invoke(node, key, input);
    if (op?.status === 'ok' && op.output) {
      const o = op.output;
      if (o.kind === 'get') seen.set(key, o.value);
      else if (o.kind === 'put' || o.kind === 'putl') seen.set(key, value);
      else if (o.kind === 'cas') seen.set(key, o.succeeded ? value : o.current);
      else if (o.kind === 'del') seen.set(key, null);
    }
  }
}

/** Heals everything and waits until one leader leads every member at one applied index. */
async function converge(w: World, convergeMs: number): Promise<void> {
  w.net.heal();
  w.net.setConditions(CALM);
  for (const n of w.active) w.restart(n.id);
  w.log('heal: network healed, every member restarted');
  const deadline = w.now + convergeMs;
  // A write through the leader proves the cluster makes progress again.
  const probe = new KvClient(w, 0, w.options.requestTimeoutMs + 1000);
  let wrote = false;
  while (!wrote && w.now < deadline) {
    if (!(await w.runUntil(() => w.leader() !== undefined, deadline - w.now))) break;
    const box: { done: boolean; op: OpRecord | undefined } = { done: false, op: undefined };
    void probe.invoke(w.leader()!.id, 'probe', { kind: 'put', value: `probe.${w.now}` }).then((op) => Object.assign(box, { done: true, op }));
    await w.runUntil(() => box.done, deadline - w.now);
    wrote = box.op?.status === 'ok';
  }
  if (!wrote) {
    w.fail(`liveness: no write succeeded within ${convergeMs} ms after healing (leader: ${w.leader()?.id ?? 'none'})`);
    return;
  }
  const converged = (): boolean => {
    const views = w.view().members;
    const leader = w.leader();
    if (views.length !== w.active.length || views.some((m) => !w.active.includes(w.node(m.id))) || !leader) return false;
    const idx = views[0]!.appliedIndex;
    return views.every((m) => m.appliedIndex === idx && w.node(m.id).running!.member.leaderId === leader.id);
  };
  if (!(await w.runUntil(converged, deadline - w.now))) {
    const views = w.view().members.map((m) => `m${m.id}: applied ${m.appliedIndex} term ${m.term} lead ${w.node(m.id).running!.member.leaderId}`);
    w.fail(`liveness: members did not converge within ${convergeMs} ms after healing (${views.join('; ')})`);
    return;
  }
  // Final linearizable reads of every key on every member: acknowledged writes must be there.
  let pending = 0;
  for (const n of w.active) {
    for (const key of KEYS) {
      pending++;
      void probe.invoke(n.id, key, { kind: 'get' }).then(() => pending--);
    }
  }
  if (!(await w.runUntil(() => pending === 0, w.options.requestTimeoutMs + 2000))) w.fail('liveness: final reads did not finish');
}

function historyDigest(w: World): string {
  const h = createHash('sha1');
  for (const op of w.history.ops) h.update(describeOp(op) + '\n');
  return h.digest('hex');
}

export async function runSeed(seed: number, options: ScenarioOptions = {}): Promise<SeedResult> {
  const chaosMs = options.chaosMs ?? 8000;
  const convergeMs = options.convergeMs ?? 15000;
  const rng = new Prng(seed).fork('scenario');
  const size = rng.chance(0.3) ? 5 : 3;
  const preVote = rng.chance(0.8);
  const fsyncMaxMs = rng.pick([2, 10, 40, 150]);
  // Half the seeds snapshot often and keep few entries, so lagging members need snapshots.
  const snapshots = rng.chance(0.5);
  const snapshotCount = snapshots ? rng.pick([3, 8, 20]) : 1_000_000_000;
  const catchUpEntries = snapshots ? rng.pick([0, 1, 5]) : 5000;
  // Some seeds change the membership: members are added (learners, voters), promoted, removed.
  const membership = rng.chance(0.4);
  const w = new World({
    seed,
    size,
    preVote,
    disk: { fsyncMinMs: 1, fsyncMaxMs },
    snapshotCount,
    catchUpEntries,
    duplicateProposals: options.duplicateProposals ?? false,
    immediateBackendWrites: options.immediateBackendWrites ?? false,
  });
  if (options.echo) w.trace.echo = (line) => console.log(line);
  let failure: SimFailure | undefined;
  try {
    w.log(`scenario: ${size} members, preVote=${preVote}, fsync 1..${fsyncMaxMs} ms, snapshot every ${snapshotCount} keeping ${catchUpEntries}, membership changes: ${membership}`);
    for (const n of w.nodes) w.restart(n.id);
    const chaosEnd = w.now + chaosMs;
    if (rng.chance(0.5)) w.net.setConditions(randomConditions(rng));
    scheduleFaults(w, rng.fork('faults'), chaosEnd, membership);
    const clients = rng.between(2, 4);
    for (let i = 1; i <= clients; i++) {
      const client = new KvClient(w, i, w.options.requestTimeoutMs + 1000);
      runClient(w, client, rng.fork(`client${i}`), BigInt(1 + (i % size)), chaosEnd, {
        v2Writes: options.v2Writes ?? true,
        leases: options.leases ?? true,
      }).catch((e: unknown) => w.fail(`client ${i} threw: ${describeError(e)}`));
    }
    while (w.now < chaosEnd) {
      await w.run(Math.min(chaosEnd, w.now + 500));
      await w.compareStates();
      w.throwIfFailed();
    }
    await converge(w, convergeMs);
    await w.compareStates();
    w.throwIfFailed();
    const problems = checkKvHistory(w.history.ops);
    if (problems.length > 0) {
      throw new SimFailure(
        seed,
        problems.map((p) => `${p.check}: ${p.message}\n${p.ops.map((o) => `      ${o}`).join('\n')}`),
        w.trace.tail(),
      );
    }
  } catch (e) {
    failure = e instanceof SimFailure ? e : new SimFailure(seed, [`exception: ${describeError(e)}`], w.trace.tail());
  }
  const ops = w.history.ops;
  const answered = ops.filter((op) => op.status === 'ok').length;
  return {
    seed,
    failure,
    digest: `${w.trace.digest()}:${historyDigest(w)}`,
    summary: `seed ${seed}: ${size} members${membership ? ` (${w.nodes.length} ever)` : ''}, ${w.steps} steps, ${w.now - 1_000_000} virtual ms, ${ops.length} ops (${answered} answered), ${w.net.stats.sent} messages, ${w.net.stats.snapshots} snapshots`,
  };
}
