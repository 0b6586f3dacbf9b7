/**
 * Masks for etcdctl output, so that runs against different servers (or two runs against the
 * same one) can be compared as text.
 *
 * Masked by default: loopback addresses (`127.x.y.z:port` → `<addr>`), 16-hex-digit ids
 * (lease and member ids → `<id>`), member ids in `member list` / `endpoint status` rows,
 * UUIDs, timestamps of etcdctl's own JSON log lines, durations (`took = …`, `"took":…`),
 * sizes in snapshot logs and status rows, raft term/index and the id fields of `-w json` output.
 * Kept by default: revisions, versions, values, TTLs, exit codes — they are deterministic for a
 * fixed command sequence on a fresh member. `revisions: true` masks revisions as well.
 */
import type { CtlResult } from './etcdctl.js';

/** Options of `mask`. */
export interface MaskOptions {
  /** Literal strings (e.g. temp paths) replaced by `<tmp>`; longest first. */
  readonly paths?: readonly string[];
  /** Also mask revisions (`"revision":N`, `*_revision`, `compacted revision N`). */
  readonly revisions?: boolean;
  /** Extra replacements applied after the default ones. */
  readonly extra?: ReadonlyArray<readonly [RegExp, string]>;
}

/** JSON fields (of `-w json` output) whose numbers differ between members and runs. */
const VOLATILE_JSON_FIELDS = ['cluster_id', 'member_id', 'raft_term', 'ID', 'id', 'leader', 'raftIndex', 'raftTerm', 'raftAppliedIndex', 'dbSize', 'dbSizeInUse', 'hash'];

const GO_DURATION = String.raw`(?:\d+(?:\.\d+)?(?:h|m(?!s)|s|ms|µs|us|ns))+`;

const DEFAULT_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  // etcdctl's zap log lines: timestamps and the per-run client UUID.
  [/"ts":"[^"]*"/g, '"ts":"<ts>"'],
  [/"ts":\d+(\.\d+)?(e[+-]?\d+)?/g, '"ts":<ts>'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>'],
  // Addresses: every member has its own loopback host and ports.
  [/\b127\.\d{1,3}\.\d{1,3}\.\d{1,3}:\d{1,5}\b/g, '<addr>'],
  // Durations.
  [new RegExp(String.raw`took = ${GO_DURATION}`, 'g'), 'took = <duration>'],
  [/"took":("[^"]*"|\d+(\.\d+)?(e[+-]?\d+)?)/g, '"took":<duration>'],
  // Sizes in snapshot logs.
  [/"size":"[^"]*"/g, '"size":"<size>"'],
  // `endpoint status` rows: endpoint, id, version, db size, is leader, is learner, term, index, applied index, errors.
  [
    /^(<addr>), [0-9a-f]{1,16}, ([^,]+), [^,]+, (true|false), (true|false), \d+, \d+, \d+, /gm,
    '$1, <id>, $2, <size>, $3, $4, <term>, <index>, <index>, ',
  ],
  // `member list` rows: id, status, name, peer urls, client urls, is learner.
  [/^[0-9a-f]{1,16}, (started|unstarted), /gm, '<id>, $1, '],
  // JSON fields first: a decimal id that happens to have 16 digits is still a number.
  // Volatile numbers of -w json and -w fields output; non-zero lease ids of keys.
  [new RegExp(String.raw`"(${VOLATILE_JSON_FIELDS.join('|')})":-?\d+`, 'g'), '"$1":<n>'],
  [/^"(ClusterID|MemberID|RaftTerm|ID)" : \d+$/gm, '"$1" : <n>'],
  // Table cells holding a member id: printed with %x, so a leading zero nibble makes it shorter.
  [/\| [0-9a-f]{12,16} \|/g, '| <id> |'],
  // `member add/remove/update/promote` print ids with %16x: a leading zero nibble becomes a space.
  [/\bMember +[0-9a-f]{1,16} (added to|removed from|updated in|promoted in) cluster +[0-9a-f]{1,16}\b/g, 'Member <id> $1 cluster <id>'],
  // `defrag`/`snapshot` lines naming a member id, and remaining 16-hex ids (lease ids).
  [/\b[0-9a-f]{16}\b/g, '<id>'],
  [/"lease":[1-9]\d*/g, '"lease":<id>'],
  [/^"Lease" : [1-9]\d*$/gm, '"Lease" : <id>'],
];

const REVISION_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/"(revision|create_revision|mod_revision|compact_revision)":\d+/g, '"$1":<rev>'],
  [/compacted revision \d+/g, 'compacted revision <rev>'],
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Applies the masks described in the file header. */
export function mask(text: string, opts: MaskOptions = {}): string {
  let out = text;
  for (const p of [...(opts.paths ?? [])].sort((a, b) => b.length - a.length)) {
    if (p !== '') out = out.replace(new RegExp(escapeRegExp(p), 'g'), '<tmp>');
  }
  for (const [re, to] of DEFAULT_RULES) out = out.replace(re, to);
  if (opts.revisions === true) for (const [re, to] of REVISION_RULES) out = out.replace(re, to);
  for (const [re, to] of opts.extra ?? []) out = out.replace(re, to);
  return out;
}

/** A masked etcdctl result: the comparable part (exit code, stdout, stderr). */
export interface MaskedResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Masks stdout and stderr of an etcdctl result. */
export function maskResult(r: CtlResult, opts: MaskOptions = {}): MaskedResult {
  return { code: r.timedOut ? null : r.code, stdout: mask(r.stdout, opts), stderr: mask(r.stderr, opts) };
}

/**
 * The gRPC status etcdctl's retry interceptor logged for a failed unary call, e.g.
 * `{ code: 'InvalidArgument', message: 'etcdserver: key is not provided' }`, or undefined.
 */
export function loggedGrpcError(stderr: string): { code: string; message: string } | undefined {
  const m = /"error":"rpc error: code = (\w+) desc = ((?:[^"\\]|\\.)*)"/.exec(stderr);
  return m === null ? undefined : { code: m[1], message: JSON.parse(`"${m[2]}"`) as string };
}

/** The `Error: …` line etcdctl printed on stderr (without the prefix), or undefined. */
export function errorLine(stderr: string): string | undefined {
  const m = /^Error: (.*)$/m.exec(stderr);
  return m === null ? undefined : m[1];
}
