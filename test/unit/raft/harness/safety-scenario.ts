/**
 * The scenario behind the Raft safety property (safety.property.test.ts) and its regressions
 * (regressions.test.ts): a Network of `size` voters and two spares driven by a list of actions
 * (ticks, Readies, delivery with duplication and reordering, loss, proposals, partitions,
 * crash-restarts, compactions, membership changes), with the invariants checked after every
 * action; then, once healed, the cluster must elect a leader and commit a new entry on every
 * member, and applied logs must be prefixes of one another.
 */
import assert from 'node:assert/strict';

import fc from 'fast-check';

import { ConfChangeType, MessageType } from '../../../../server/raft/index.js';
import { InvariantChecker } from './invariants.js';
import { Network } from './network.js';
import { mulberry32 } from '../../../support/seeded-random.js';

export type Action =
  | { kind: 'tick'; node: number }
  | { kind: 'tickAll' }
  | { kind: 'ready'; node: number }
  | { kind: 'deliver'; pos: number; dup: boolean }
  | { kind: 'drop'; pos: number }
  | { kind: 'propose'; node: number }
  | { kind: 'partition'; mask: number }
  | { kind: 'heal' }
  | { kind: 'restart'; node: number }
  | { kind: 'compact'; node: number }
  | { kind: 'flush' }
  | { kind: 'conf'; node: number; target: number; op: 'add-learner' | 'promote' | 'remove-learner' };

const node = fc.integer({ min: 1, max: 5 });
/** One step of a scenario, weighted towards message delivery. */
export const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: node.map((n) => ({ kind: 'tick' as const, node: n })) },
  { weight: 2, arbitrary: fc.constant({ kind: 'tickAll' as const }) },
  { weight: 6, arbitrary: node.map((n) => ({ kind: 'ready' as const, node: n })) },
  { weight: 20, arbitrary: fc.record({ kind: fc.constant('deliver' as const), pos: fc.nat(), dup: fc.integer({ min: 0, max: 4 }).map((d) => d === 0) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), pos: fc.nat() }) },
  { weight: 4, arbitrary: node.map((n) => ({ kind: 'propose' as const, node: n })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 126 }).map((m) => ({ kind: 'partition' as const, mask: m })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'heal' as const }) },
  { weight: 1, arbitrary: node.map((n) => ({ kind: 'restart' as const, node: n })) },
  { weight: 1, arbitrary: node.map((n) => ({ kind: 'compact' as const, node: n })) },
  { weight: 3, arbitrary: fc.constant({ kind: 'flush' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('conf' as const),
      node,
      target: fc.integer({ min: 0, max: 1 }),
      op: fc.constantFrom('add-learner' as const, 'promote' as const, 'remove-learner' as const),
    }),
  },
);


/**
 * Runs one scenario: `size` voters plus two spares (joined only through conf changes), the
 * actions, then the liveness check once the network heals. Throws (invariant error or failed
 * assertion) on a violation.
 */
export function runScenario(size: number, preVote: boolean, checkQuorum: boolean, seed: number, actions: readonly Action[]): void {
  // Short timeouts (in ticks) so that a few hundred steps see many elections.
  const net = new Network({ preVote, checkQuorum, maxInflight: 4, maxSizePerMsg: 64, electionTicks: 4, heartbeatTicks: 1 });
  const voters = Array.from({ length: size }, (_, i) => BigInt(i + 1));
  // Two more nodes run from the start but join only through conf changes (learner, then voter).
  const spares = [BigInt(size + 1), BigInt(size + 2)];
  const all = [...voters, ...spares];
  for (const id of all) net.add(id, { voters, rng: mulberry32(seed + Number(id)) });
  const checker = new InvariantChecker(net);
  net.get(1n).node.campaign();
  net.stabilize();
  const pick = (n: number): bigint => BigInt(((n - 1) % all.length) + 1);
  let proposals = 0;
  for (const a of actions) {
    switch (a.kind) {
      case 'tick':
        net.tick(pick(a.node));
        break;
      case 'tickAll':
        for (const id of all) net.tick(id);
        break;
      case 'ready':
        net.handleReady(pick(a.node));
        break;
      case 'deliver': {
        if (net.queue.length === 0) break;
        const at = a.pos % net.queue.length;
        const m = net.queue[at]!;
        if (!a.dup) net.queue.splice(at, 1);
        net.deliver(m);
        break;
      }
      case 'drop': {
        if (net.queue.length === 0) break;
        const [m] = net.queue.splice(a.pos % net.queue.length, 1);
        if (m!.type === MessageType.MsgSnap) net.get(m!.from).node.reportSnapshot(m!.to, false);
        break;
      }
      case 'propose':
        net.get(pick(a.node)).node.propose(Buffer.from(`p${proposals++}`));
        break;
      case 'partition': {
        const side = all.filter((id) => (a.mask >> Number(id - 1n)) & 1);
        net.partition([side, all.filter((id) => !side.includes(id))]);
        break;
      }
      case 'heal':
        net.heal();
        break;
      case 'restart':
        net.restart(pick(a.node));
        break;
      case 'flush':
        for (const id of all) net.handleReady(id);
        net.deliverAll();
        break;
      case 'conf': {
        // Membership changes that never remove a voter (a removed voter that does not learn of
        // its removal would keep disrupting elections; the member shuts such nodes down).
        const proposer = net.get(pick(a.node)).node;
        const target = spares[a.target]!;
        const cs = proposer.status().confState;
        const isLearner = cs.learners.includes(target);
        const isMember = isLearner || cs.voters.includes(target);
        const type =
          a.op === 'add-learner' && !isMember
            ? ConfChangeType.AddLearnerNode
            : a.op === 'promote' && isLearner
              ? ConfChangeType.AddNode
              : a.op === 'remove-learner' && isLearner
                ? ConfChangeType.RemoveNode
                : undefined;
        if (type !== undefined) proposer.proposeConfChange({ type, nodeId: target, context: Buffer.alloc(0) });
        break;
      }
      case 'compact': {
        const t = net.get(pick(a.node));
        const at = t.appliedIndex();
        if (at < t.storage.firstIndex()) break;
        const snap = t.storage.createSnapshot(at, t.confStateAt(at), t.snapshotData());
        if (snap.ok) t.storage.compact(at);
        break;
      }
    }
    checker.check();
  }
  if (process.env['RAFT_PROPERTY_STATS'] === '1') {
    const s = all.map((id) => net.get(id).node.status());
    console.log(`size=${size} pv=${preVote} cq=${checkQuorum} actions=${actions.length} maxTerm=${s.reduce((m, x) => (x.term > m ? x.term : m), 0)} maxCommit=${s.reduce((m, x) => (x.commit > m ? x.commit : m), 0)} firstIndex=${all.map((id) => net.get(id).storage.firstIndex()).join(',')} members=${JSON.stringify(net.get(1n).node.status().confState, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))}`);
  }
  // Liveness once healed: a leader emerges and a new entry reaches every node.
  net.heal();
  let done = false;
  for (let round = 0; round < 400 && !done; round++) {
    net.stabilize(1000);
    checker.check();
    const leaders = net.leaders().sort((x, y) => (x.term > y.term ? -1 : 1));
    const top = leaders[0];
    if (top !== undefined && net.get(top.id).node.status().lead === top.id) {
      if (!net.get(top.id).applied.some((e) => e.data === 'final')) net.get(top.id).node.propose(Buffer.from('final'));
      net.stabilize(1000);
      const cs = net.get(top.id).node.status().confState;
      done = [...cs.voters, ...cs.learners].every((id) => net.get(id).applied.some((e) => e.data === 'final'));
    }
    for (const id of all) net.tick(id);
  }
  assert.ok(done, 'the healed cluster commits a new entry on every member');
  const lists = all.map((id) => net.get(id).applied.map((e) => `${e.index}:${e.term}:${e.data}`));
  for (const l of lists) for (const m of lists) {
    const n = Math.min(l.length, m.length);
    assert.deepEqual(l.slice(0, n), m.slice(0, n), 'applied logs are prefixes of one another');
  }
}
