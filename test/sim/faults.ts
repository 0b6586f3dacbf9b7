/**
 * The random fault schedule of one seed: at random moments, one of — a partition (a random
 * split, or one member — often the leader — isolated), a one-way cut, healing, a crash
 * (process kill, power loss, power loss with a torn unsynced tail) with a restart later, a
 * power outage of many members at once (at a random moment, or right after a client was
 * told its write succeeded), new network conditions (loss, duplication, reordering,
 * delay), a leadership transfer, a compaction, or a membership change (add a learner or a
 * voter, promote a learner, remove a member). Choices that depend on the state of the
 * world (who leads, who is up) are made when the fault fires.
 */
import type { Prng } from './world/prng.js';
import { CALM, type NetworkConditions } from './world/sim-network.js';
import type { CrashKind } from './world/sim-node.js';
import type { World } from './world/world.js';

export function randomConditions(rng: Prng): NetworkConditions {
  const minDelayMs = rng.between(0, 5);
  return {
    dropRate: rng.pick([0, 0.02, 0.1, 0.3]),
    dupRate: rng.pick([0, 0.02, 0.1]),
    reorderRate: rng.pick([0, 0.05, 0.3]),
    minDelayMs,
    maxDelayMs: minDelayMs + rng.pick([2, 10, 40, 150]),
  };
}

/** Members that take part in the run and are up and started. */
export function upIds(w: World): bigint[] {
  return w.active.filter((n) => n.running?.started).map((n) => n.id);
}

/** The largest membership the membership faults grow the cluster to. */
const MAX_MEMBERS = 6;

function membershipChange(w: World, rng: Prng): void {
  const leader = w.leader()?.running;
  if (!leader) return;
  const list = leader.membership.list();
  const voters = list.filter((m) => !m.isLearner);
  const learners = list.filter((m) => m.isLearner);
  const roll = rng.float();
  if (roll < 0.35 && list.length < MAX_MEMBERS) {
    w.membership.add(learners.length === 0 && rng.chance(0.6));
  } else if (roll < 0.55 && learners.length > 0) {
    w.membership.promote(rng.pick(learners).id);
  } else if (learners.length > 0 || voters.length > 3) {
    // Keep at least three voters; the leader itself may go.
    const candidates = voters.length > 3 ? list : learners;
    w.membership.remove(rng.pick(candidates).id);
  }
}

export function scheduleFaults(w: World, rng: Prng, untilMs: number, membership: boolean): void {
  const restartLater = (id: bigint): void => {
    w.after(rng.between(50, 3000), `restart m${id}`, () => {
      w.log(`fault: restart m${id}`);
      w.restart(id);
    });
  };
  const pickTarget = (preferLeader: boolean): bigint | undefined => {
    const leader = w.leader()?.id;
    if (preferLeader && leader !== undefined) return leader;
    const up = upIds(w);
    return up.length > 0 ? rng.pick(up) : undefined;
  };
  const activeIds = (): bigint[] => w.active.map((n) => n.id);
  let t = w.now + rng.between(200, 1500);
  while (t < untilMs) {
    const roll = rng.float();
    const delay = t - w.now;
    if (roll < 0.18) {
      w.after(delay, 'partition', () => {
        const ids = activeIds();
        const shuffled = ids.map((id) => ({ id, r: rng.float() })).sort((a, b) => a.r - b.r).map((x) => x.id);
        const cut = rng.between(1, Math.max(1, Math.floor(ids.length / 2)));
        w.net.partition([shuffled.slice(0, cut), shuffled.slice(cut)]);
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
        const ids = activeIds();
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
        const others = upIds(w).filter((id) => id !== leader?.id);
        if (!leader || others.length === 0) return;
        const target = rng.pick(others);
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
  if (!membership) return;
  for (let m = w.now + rng.between(300, 2000); m < untilMs; m += rng.between(300, 2000)) {
    w.after(m - w.now, 'membership change', () => membershipChange(w, rng));
  }
}
