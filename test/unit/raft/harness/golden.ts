/**
 * Golden transcripts: a tiny interpreter over test/unit/raft/testdata/*.txt.
 *
 * File format: blocks separated by blank lines. A block is optional `#` comment lines, one
 * command line, a `----` line, then the expected output lines (never blank). Commands:
 *
 *   add-nodes <n> [voters=1,2,3] [learners=4] [pre-vote=true] [check-quorum=true]
 *             [max-inflight=N] [max-size=N] [election=N] [heartbeat=N]
 *             [rng=0,0.5,...]   (constant rng value per new node; default 0: timeout = electionTicks)
 *   campaign <id>                      propose <id> <data>
 *   propose-conf-change <id> add|add-learner|remove <node>
 *   stabilize                          process-ready <id>...
 *   deliver-msgs [<id>...]             drop-msgs [<id>...]      (messages addressed to ids)
 *   tick <id> <n>    tick-heartbeat <id>    tick-election <id>  (election: electionTicks ticks)
 *   partition 1 | 2 3                  isolate <id>             heal
 *   read-index <id> <ctx>              transfer-leadership <from> <to>
 *   compact <id> <index>               (snapshot of the applied state at index, then compact)
 *   report-unreachable <id> <peer>     restart <id>
 *   status <id>    raft-state    log <id>    applied <id>
 *
 * Output is the trace of Readies handled and messages sent/dropped during the command, plus
 * the command's own lines; `ok` when there is nothing to show. Back-to-back repeats of the same
 * lines are shown once with a count (`(x10)`).
 */
import { ConfChangeType, type ConfChange } from '../../../../server/raft/index.js';
import { formatEntries } from './format.js';
import { Network, type NodeOptions } from './network.js';

export interface Block {
  readonly comments: string[];
  readonly command: string;
  readonly expected: string[];
}

export function parseGolden(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length) {
    while (i < lines.length && lines[i]!.trim() === '') i++;
    if (i >= lines.length) break;
    const comments: string[] = [];
    while (i < lines.length && lines[i]!.startsWith('#')) comments.push(lines[i++]!);
    if (i >= lines.length || lines[i]!.trim() === '') {
      blocks.push({ comments, command: '', expected: [] });
      continue;
    }
    const command = lines[i++]!;
    if (lines[i] !== '----') throw new Error(`line ${i + 1}: expected ---- after ${JSON.stringify(command)}`);
    i++;
    const expected: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') expected.push(lines[i++]!);
    blocks.push({ comments, command, expected });
  }
  return blocks;
}

export function formatGolden(blocks: readonly { comments: string[]; command: string; expected: string[] }[]): string {
  const parts = blocks.map((b) =>
    b.command === '' ? b.comments.join('\n') : [...b.comments, b.command, '----', ...b.expected].join('\n'),
  );
  return `${parts.join('\n\n')}\n`;
}

const CC: Record<string, ConfChange['type']> = {
  add: ConfChangeType.AddNode,
  'add-learner': ConfChangeType.AddLearnerNode,
  remove: ConfChangeType.RemoveNode,
};

const idList = (s: string): bigint[] => (s === '' ? [] : s.split(',').map((x) => BigInt(x)));

export class Interpreter {
  readonly trace: string[] = [];
  readonly net = new Network({}, this.trace);

  /** Runs one command line; returns its output lines. */
  run(command: string): string[] {
    this.trace.length = 0;
    const own = this.#exec(command.trim().split(/\s+/));
    const out = collapse([...this.trace, ...own]);
    return out.length === 0 ? ['ok'] : out;
  }

  #exec(argv: string[]): string[] {
    const [cmd = '', ...args] = argv;
    const id = (k: number): bigint => BigInt(args[k] ?? NaN);
    const node = (k: number) => this.net.get(id(k)).node;
    switch (cmd) {
      case 'add-nodes':
        return this.#addNodes(Number(args[0]), args.slice(1));
      case 'campaign':
        return result(node(0).campaign());
      case 'propose':
        return result(node(0).propose(Buffer.from(args[1] ?? '')));
      case 'propose-conf-change': {
        const type = CC[args[1] ?? ''];
        if (type === undefined) throw new Error(`unknown conf change ${args[1]}`);
        return result(node(0).proposeConfChange({ type, nodeId: id(2), context: Buffer.alloc(0) }));
      }
      case 'stabilize':
        this.net.stabilize();
        return [];
      case 'process-ready':
        for (let k = 0; k < args.length; k++) this.net.handleReady(id(k));
        return [];
      case 'deliver-msgs':
      case 'drop-msgs': {
        const to = new Set(args.map((a) => BigInt(a)));
        const pick = (m: { to: bigint }) => to.size === 0 || to.has(m.to);
        if (cmd === 'deliver-msgs') this.net.deliverAll(pick);
        else {
          const dropped = this.net.queue.filter(pick);
          this.net.queue = this.net.queue.filter((m) => !pick(m));
          return dropped.map((m) => `dropped: ${m.from}->${m.to} ${m.type}`);
        }
        return [];
      }
      case 'tick':
        this.net.tick(id(0), Number(args[1] ?? 1));
        return [];
      case 'tick-heartbeat':
        this.net.tick(id(0), this.net.get(id(0)).config.heartbeatTicks);
        return [];
      case 'tick-election':
        this.net.tick(id(0), this.net.get(id(0)).config.electionTicks);
        return [];
      case 'partition':
        this.net.partition(args.join(' ').split('|').map((g) => g.trim().split(/\s+/).filter((x) => x !== '').map((x) => BigInt(x))));
        return [];
      case 'isolate':
        this.net.isolate(id(0));
        return [];
      case 'heal':
        this.net.heal();
        return [];
      case 'read-index':
        return result(node(0).readIndex(Buffer.from(args[1] ?? '')));
      case 'transfer-leadership':
        node(0).transferLeader(id(1));
        return [];
      case 'compact':
        return this.#compact(id(0), Number(id(1)));
      case 'report-unreachable':
        node(0).reportUnreachable(id(1));
        return [];
      case 'restart':
        this.net.restart(id(0));
        return [];
      case 'status':
        return this.#status(id(0));
      case 'raft-state':
        return this.net.ids().map((i) => {
          const s = this.net.get(i).node.status();
          return `${i}: ${s.raftState} term=${s.term} lead=${s.lead}`;
        });
      case 'log': {
        const t = this.net.get(id(0));
        const st = t.storage;
        const ents = st.entries(st.firstIndex(), st.lastIndex() + 1, Number.MAX_SAFE_INTEGER);
        return [`${t.id}: first=${st.firstIndex()} last=${st.lastIndex()} ${ents.ok ? formatEntries(ents.value) : '[]'}`];
      }
      case 'applied': {
        const t = this.net.get(id(0));
        const shown = t.applied.filter((a) => a.data !== '').map((a) => `${a.index}:${a.data}`);
        return [`${t.id}: ${shown.length === 0 ? '(none)' : shown.join(' ')}`];
      }
      default:
        throw new Error(`unknown command ${JSON.stringify(cmd)}`);
    }
  }

  #addNodes(n: number, opts: string[]): string[] {
    const kv = new Map(opts.map((o) => o.split('=') as [string, string]));
    const start = BigInt(this.net.nodes.size + 1);
    const fresh = Array.from({ length: n }, (_, k) => start + BigInt(k));
    const o: NodeOptions = {
      voters: kv.has('voters') ? idList(kv.get('voters')!) : fresh,
      learners: kv.has('learners') ? idList(kv.get('learners')!) : [],
      preVote: kv.get('pre-vote') === 'true',
      checkQuorum: kv.get('check-quorum') === 'true',
      ...(kv.has('max-inflight') ? { maxInflight: Number(kv.get('max-inflight')) } : {}),
      ...(kv.has('max-size') ? { maxSizePerMsg: Number(kv.get('max-size')) } : {}),
      ...(kv.has('election') ? { electionTicks: Number(kv.get('election')) } : {}),
      ...(kv.has('heartbeat') ? { heartbeatTicks: Number(kv.get('heartbeat')) } : {}),
    };
    const rngs = kv.has('rng') ? kv.get('rng')!.split(',').map(Number) : [0];
    return fresh.map((nid, k) => {
      const v = rngs[Math.min(k, rngs.length - 1)]!;
      const t = this.net.add(nid, { ...o, rng: () => v });
      return `${nid}: voters=[${(t.config.voters).join(' ')}] learners=[${(t.config.learners ?? []).join(' ')}]`;
    });
  }

  #compact(id: bigint, index: number): string[] {
    const t = this.net.get(id);
    if (index > t.appliedIndex()) throw new Error(`compact ${index} past applied ${t.appliedIndex()}`);
    const full = t.applied;
    t.applied = full.filter((a) => a.index <= index);
    const data = t.snapshotData();
    t.applied = full;
    const snap = t.storage.createSnapshot(index, t.confStateAt(index), data);
    if (!snap.ok) return [`error: ${snap.error.kind}`];
    const c = t.storage.compact(index);
    if (!c.ok) return [`error: ${c.error.kind}`];
    return [`${id}: snapshot ${index}/${snap.value.metadata.term}, first index ${t.storage.firstIndex()}`];
  }

  #status(id: bigint): string[] {
    const s = this.net.get(id).node.status();
    const lines = [
      `${id}: ${s.raftState} term=${s.term} vote=${s.vote} lead=${s.lead} commit=${s.commit} applied=${s.applied} last=${s.lastIndex} voters=[${s.confState.voters.join(' ')}] learners=[${s.confState.learners.join(' ')}]${s.leadTransferee !== 0n ? ` transferee=${s.leadTransferee}` : ''}`,
    ];
    for (const [pid, p] of s.progress) {
      lines.push(
        `  ${pid}: ${p.state} match=${p.match} next=${p.next}${p.isLearner ? ' learner' : ''}${p.inflight > 0 ? ` inflight=${p.inflight}` : ''}${p.pendingSnapshot > 0 ? ` snapshot=${p.pendingSnapshot}` : ''}${p.recentActive ? '' : ' inactive'}`,
      );
    }
    return lines;
  }
}

/**
 * A run of repeated lines (a leader ticking many heartbeats to several followers) is shown once,
 * each line suffixed with the repeat count. Only back-to-back repeats of a group of up to 4
 * lines are folded, so the order of events stays visible.
 */
function collapse(lines: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    let best = { k: 1, reps: 1 };
    for (let k = 1; k <= 4 && i + k <= lines.length; k++) {
      let reps = 1;
      while (i + (reps + 1) * k <= lines.length && sameGroup(lines, i, i + reps * k, k)) reps++;
      if (reps > 1 && reps * k > best.reps * best.k) best = { k, reps };
    }
    for (let j = 0; j < best.k; j++) out.push(best.reps > 1 ? `${lines[i + j]} (x${best.reps})` : lines[i + j]!);
    i += best.k * best.reps;
  }
  return out;
}

function sameGroup(lines: string[], a: number, b: number, k: number): boolean {
  for (let j = 0; j < k; j++) if (lines[a + j] !== lines[b + j]) return false;
  return true;
}

function result(r: { ok: boolean; error?: { kind: string; reason?: string } }): string[] {
  return r.ok ? [] : [`error: ${r.error!.kind}${r.error!.reason !== undefined ? ` (${r.error!.reason})` : ''}`];
}
