/**
 * One seed of the cluster simulation: a random cluster (3 or 5 members, pre-vote on or off,
 * disk and network speeds), clients issuing puts, gets, deletes and compare-and-swaps, and
 * a random schedule of faults — partitions (splits, isolation, one-way cuts), message loss,
 * duplication, reordering and delay, crashes (process kill, power loss, power loss with a
 * torn unsynced tail), restarts, leadership transfers and compactions. Then the network
 * heals, every member restarts, and the run must converge: one leader, every member at the
 * same applied index with the same state. Invariants are checked after every step; at the
 * end the client history must be linearizable with consistent revisions.
 *
 * Everything is derived from the seed: `runSeed(s)` twice gives the same trace digest.
 */
import { createHash } from 'node:crypto';
import { checkKvHistory } from './checks/kv-history.js';
import { describeOp, type OpRecord } from './world/history.js';
import { KvClient } from './world/kv-client.js';
import { Prng } from './world/prng.js';
import { CALM, type NetworkConditions } from './world/sim-network.js';
import type { CrashKind } from './world/sim-node.js';
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
}

export interface SeedResult {
  readonly seed: number;
  readonly failure: SimFailure | undefined;
  /** Digest of the trace and the history: equal for two runs of one seed. */
  readonly digest: string;
  readonly summary: string;
}

const KEYS = ['k0', 'k1', 'k2'];

function randomConditions(rng: Prng): NetworkConditions {
  const minDelayMs = rng.between(0, 5);
  return {
    dropRate: rng.pick([0, 0.02, 0.1, 0.3]),
    dupRate: rng.pick([0, 0.02, 0.1]),
    reorderRate: rng.pick([0, 0.05, 0.3]),
    minDelayMs,
    maxDelayMs: minDelayMs + rng.pick([2, 10, 40, 150]),
  };
}

/** Members that are up, started. */
function upIds(w: World): bigint[] {
  return w.nodes.filter((n) => n.running?.started).map((n) => n.id);
}

function scheduleFaults(w: World, rng: Prng, untilMs: number): void {
  const ids = w.nodes.map((n) => n.id);
  const restartLater = (id: bigint): void => {
    w.after(rng.between(50, 3000), `restart m${id}`, () => {
      w.log(`fault: restart m${id}`);
      w.restart(id);
    });
  };
  let t = w.now + rng.between(200, 1500);
  while (t < untilMs) {
    const roll = rng.float();
    const delay = t - w.now;
    // Choices that depend on the state of the world are made when the fault fires.
    const pickTarget = (preferLeader: boolean): bigint | undefined => {
      const leader = w.leader()?.id;
      if (preferLeader && leader !== undefined) return leader;
      const up = upIds(w);
      return up.length > 0 ? rng.pick(up) : undefined;
    };
    if (roll < 0.18) {
      w.after(delay, 'partition', () => {
        const shuffled = ids.map((id) => ({ id, r: rng.float() })).sort((a, b) => a.r - b.r).map((x) => x.id);
        const cut = rng.between(1, Math.floor(ids.length / 2));
        const groups = [shuffled.slice(0, cut), shuffled.slice(cut)];
        w.net.partition(groups);
        w.log(`fault: partition ${w.net.describeCuts()}`);
      });
    } else if (roll < 0.28) {
      const preferLeader = rng.chance(0.6);
      w.after(delay, 'isolate', () => {
        const id = pickTarget(preferLeader);
        if (id === undefined) return;
        w.net.partition([[id]]);
        w.log(`fault: isolate m${id} ${w.net.describeCuts()}`);
      });
    } else if (roll < 0.34) {
      w.after(delay, 'one-way cut', () => {
        const from = rng.pick(ids);
        const to = rng.pick(ids.filter((id) => id !== from));
        w.net.cutOneWay(from, to);
        w.log(`fault: cut ${from}>${to}`);
      });
    } else if (roll < 0.46) {
      w.after(delay, 'heal', () => {
        w.net.heal();
        w.log('fault: heal');
      });
    } else if (roll < 0.62) {
      const preferLeader = rng.chance(0.4);
      const kind: CrashKind = rng.pick(['kill', 'power', 'power-torn'] as const);
      w.after(delay, 'crash', () => {
        const id = pickTarget(preferLeader);
        if (id === undefined) return;
        w.log(`fault: crash m${id} (${kind})`);
        w.crash(id, kind);
        restartLater(id);
      });
    } else if (roll < 0.7) {
      // A power outage of many members at once, at a random moment or right after a client
      // was told its write succeeded (when the fewest of its entries may be durable).
      const all = rng.chance(0.5);
      const afterAck = rng.chance(0.6);
      const kind: CrashKind = rng.pick(['power', 'power-torn'] as const);
      const outage = (): void => {
        const up = upIds(w);
        const victims = all ? up : up.filter(() => rng.chance(0.6));
        w.log(`fault: power outage (${kind}${afterAck ? ', after an answer' : ''}) of ${victims.map((id) => `m${id}`).join(',') || 'nobody'}`);
        for (const id of victims) {
          w.crash(id, kind);
          restartLater(id);
        }
      };
      w.after(delay, 'outage', () => (afterAck ? w.onNextAnswer(() => w.after(0, 'outage', outage)) : outage()));
    } else if (roll < 0.8) {
      const c = rng.chance(0.3) ? CALM : randomConditions(rng);
      w.after(delay, 'network conditions', () => {
        w.net.setConditions(c);
        w.log(`fault: network drop=${c.dropRate} dup=${c.dupRate} reorder=${c.reorderRate} delay=${c.minDelayMs}..${c.maxDelayMs}`);
      });
    } else if (roll < 0.87) {
      w.after(delay, 'transfer leadership', () => {
        const leader = w.leader();
        if (!leader) return;
        const target = rng.pick(ids.filter((id) => id !== leader.id));
        w.log(`fault: transfer leadership m${leader.id} → m${target}`);
        void leader.running!.member.transferLeadership(target);
      });
    } else if (roll < 0.92) {
      const back = BigInt(rng.between(0, 4));
      w.after(delay, 'compact', () => {
        const leader = w.leader()?.running;
        if (!leader) return;
        const revision = leader.store.currentRevision - back;
        if (revision <= leader.store.compactRevision || revision < 1n) return;
        w.log(`fault: compact at ${revision} via m${leader.member.memberId}`);
        void leader.member.propose({ $case: 'compaction', value: { revision, physical: rng.chance(0.5) } });
      });
    }
    // else: a quiet interval.
    t += rng.between(100, 1500);
  }
}

async function runClient(w: World, client: KvClient, rng: Prng, home: bigint, untilMs: number): Promise<void> {
  let seq = 0;
  const seen = new Map<string, string | null>();
  while (w.now < untilMs) {
    await w.sleep(rng.between(0, 150));
    if (w.now >= untilMs) return;
    const up = upIds(w);
    if (up.length === 0) continue;
    const node = up.includes(home) && rng.chance(0.8) ? home : rng.pick(up);
    const key = rng.pick(KEYS);
    const roll = rng.float();
    const value = `c${client.id}.${++seq}`;
    const input =
      roll < 0.35
        ? ({ kind: 'put', value } as const)
        : roll < 0.7
          ? ({ kind: 'get' } as const)
          : roll < 0.9
            ? ({ kind: 'cas', expect: rng.chance(0.8) ? (seen.get(key) ?? null) : null, value } as const)
            : ({ kind: 'del' } as const);
    const op = await client.invoke(node, key, input);
    if (op?.status === 'ok' && op.output) {
      const o = op.output;
      if (o.kind === 'get') seen.set(key, o.value);
      else if (o.kind === 'put') seen.set(key, value);
      else if (o.kind === 'cas') seen.set(key, o.succeeded ? value : o.current);
      else seen.set(key, null);
    }
  }
}

/** Heals everything and waits until one leader leads every member at one applied index. */
async function converge(w: World, convergeMs: number): Promise<void> {
  w.net.heal();
  w.net.setConditions(CALM);
  for (const n of w.nodes) w.restart(n.id);
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
    if (views.length !== w.nodes.length || !leader) return false;
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
  for (const n of w.nodes) {
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
  const w = new World({
    seed,
    size,
    preVote,
    disk: { fsyncMinMs: 1, fsyncMaxMs },
    snapshotCount,
    catchUpEntries,
    duplicateProposals: options.duplicateProposals ?? false,
  });
  if (options.echo) w.trace.echo = (line) => console.log(line);
  let failure: SimFailure | undefined;
  try {
    w.log(`scenario: ${size} members, preVote=${preVote}, fsync 1..${fsyncMaxMs} ms, snapshot every ${snapshotCount} keeping ${catchUpEntries}`);
    for (const n of w.nodes) w.restart(n.id);
    const chaosEnd = w.now + chaosMs;
    if (rng.chance(0.5)) w.net.setConditions(randomConditions(rng));
    scheduleFaults(w, rng.fork('faults'), chaosEnd);
    const clients = rng.between(2, 4);
    for (let i = 1; i <= clients; i++) {
      const client = new KvClient(w, i, w.options.requestTimeoutMs + 1000);
      runClient(w, client, rng.fork(`client${i}`), BigInt(1 + (i % size)), chaosEnd).catch((e: unknown) => w.fail(`client ${i} threw: ${describeError(e)}`));
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
    summary: `seed ${seed}: ${size} members, ${w.steps} steps, ${w.now - 1_000_000} virtual ms, ${ops.length} ops (${answered} answered), ${w.net.stats.sent} messages, ${w.net.stats.snapshots} snapshots`,
  };
}
