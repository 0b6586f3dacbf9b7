/**
 * A seeded generator of HTTP/2 connection scripts for the frame fuzzer (test/e2e/h2/fuzz.test.ts).
 *
 * A script is the bytes one client connection sends, as a list of units (a frame, a few frames
 * that belong together, or loose bytes) plus the offsets where the bytes are cut into separate
 * socket writes. Units are what the shrinker removes one by one; every header block is made of
 * literals without indexing (no dynamic table), so removing a unit never changes what another
 * unit means to the decoder.
 *
 * Contract: pure and deterministic — the same seed gives the same script, byte for byte, on any
 * platform (mulberry32; no clock, no global state). The authority is a fixed `localhost`, so a
 * script does not depend on the member's address.
 */
import { mulberry32 } from '../seeded-random.js';
import { ErrorCode, Flag, frame, FrameType, PREFACE, priorityBlock, Setting, settingsPayload, u32 } from './frames.js';
import { BadHuffman, huffmanString, indexed, literalBlock, rawString, tableSizeUpdate, type Fields } from './hpack-bytes.js';

export interface ScriptUnit {
  /** What the unit is, for the failure report. */
  readonly label: string;
  readonly bytes: Buffer;
}

export interface ConnectionScript {
  readonly seed: number;
  readonly units: readonly ScriptUnit[];
  /** Offsets into the units' concatenated bytes where a new socket write starts. */
  readonly cuts: readonly number[];
}

const RANGE_BODY = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x03, 0x0a, 0x01, 0x6b]);
const PATHS = ['/etcdserverpb.KV/Range', '/etcdserverpb.KV/Put', '/etcdserverpb.Maintenance/Status', '/etcdserverpb.Watch/Watch', '/nope.Service/Nope', '/'];

class Rng {
  readonly #next: () => number;
  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }
  float(): number {
    return this.#next();
  }
  int(maxExclusive: number): number {
    return Math.floor(this.#next() * maxExclusive);
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
  /** Small numbers mostly, and the edges of 31 and 32 bits now and then. */
  u32(): number {
    return this.pick([0, 1, 2, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 65_535, 65_536, 16_384, this.int(1 << 16), this.int(2 ** 31)]);
  }
}

function requestFields(rng: Rng): Fields {
  return [
    [':method', 'POST'],
    [':scheme', 'http'],
    [':path', rng.pick(PATHS)],
    [':authority', 'localhost'],
    ['content-type', 'application/grpc'],
    ['te', 'trailers'],
  ];
}

/** A request head broken in one of the ways §8 forbids. */
function malformedFields(rng: Rng): Fields {
  const f = [...requestFields(rng)];
  switch (rng.int(8)) {
    case 0: return f.filter(([n]) => n !== rng.pick([':method', ':path', ':scheme']));
    case 1: return [...f, ['X-Upper', 'a']];
    case 2: return [...f, ['connection', 'close']];
    case 3: return [[':foo', 'x'], ...f];
    case 4: return [...f, [':path', '/again']];
    case 5: return f.map(([n, v]) => (n === ':path' ? [n, ''] : [n, v]));
    case 6: return [...f, ['content-length', String(rng.int(100))]];
    default: return [...f, ['x-bin', rng.bytes(rng.int(20)).toString('latin1')]];
  }
}

/** A header block: literals, sometimes with a table size update or a broken piece spliced in. */
function headerBlock(rng: Rng, fields: Fields): Buffer {
  const block = literalBlock(fields);
  if (!rng.chance(0.25)) return block;
  switch (rng.int(6)) {
    case 0: return Buffer.concat([tableSizeUpdate(rng.pick([0, 4096, 4097, 1 << 20, rng.int(1 << 16)])), block]);
    case 1: return Buffer.concat([block, tableSizeUpdate(rng.int(8192))]);
    case 2: return Buffer.concat([block, indexed(rng.pick([0, 62, 70, 300]))]);
    case 3: return Buffer.concat([block, Buffer.from([0x00]), rawString('x-h'), huffmanString(rng.pick([BadHuffman.longPadding, BadHuffman.zeroPadding, BadHuffman.eos]))]);
    case 4: return block.subarray(0, rng.int(block.length));
    default: return Buffer.concat([block, rng.bytes(1 + rng.int(8))]);
  }
}

/** HEADERS for `fields`, split into CONTINUATIONs now and then, padded or prioritised now and then. */
function headersUnits(rng: Rng, stream: number, block: Buffer, endStream: boolean): Buffer {
  const es = endStream ? Flag.END_STREAM : 0;
  if (rng.chance(0.2) && block.length > 2) {
    const cut = 1 + rng.int(block.length - 1);
    return Buffer.concat([frame(FrameType.HEADERS, es, stream, block.subarray(0, cut)), frame(FrameType.CONTINUATION, Flag.END_HEADERS, stream, block.subarray(cut))]);
  }
  let flags = es | Flag.END_HEADERS;
  let payload = block;
  if (rng.chance(0.1)) {
    flags |= Flag.PRIORITY;
    payload = Buffer.concat([priorityBlock(rng.chance(0.2) ? stream : rng.int(10), 1 + rng.int(256), rng.chance(0.5)), payload]);
  }
  if (rng.chance(0.1)) {
    const pad = rng.int(20);
    flags |= Flag.PADDED;
    payload = Buffer.concat([Buffer.from([rng.chance(0.3) ? 255 : pad]), payload, Buffer.alloc(pad)]);
  }
  return frame(FrameType.HEADERS, flags, stream, payload);
}

type Action = (rng: Rng, s: { next: number }) => ScriptUnit;

const newStream = (rng: Rng, s: { next: number }): number => {
  if (rng.chance(0.05)) return rng.int(12); // even, zero or reused
  const id = s.next;
  s.next += 2;
  return id;
};
const someStream = (rng: Rng, s: { next: number }): number => (rng.chance(0.7) ? Math.max(1, s.next - 2) : rng.int(s.next + 4));

const ACTIONS: readonly (readonly [number, Action])[] = [
  [6, (rng, s) => {
    const id = newStream(rng, s);
    return { label: `valid request on ${id}`, bytes: Buffer.concat([headersUnits(rng, id, literalBlock(requestFields(rng)), false), frame(FrameType.DATA, Flag.END_STREAM, id, RANGE_BODY)]) };
  }],
  [3, (rng, s) => {
    const id = newStream(rng, s);
    return { label: `malformed request on ${id}`, bytes: Buffer.concat([headersUnits(rng, id, literalBlock(malformedFields(rng)), rng.chance(0.3)), frame(FrameType.DATA, Flag.END_STREAM, id, RANGE_BODY)]) };
  }],
  [3, (rng, s) => {
    const id = newStream(rng, s);
    return { label: `request with a fuzzed header block on ${id}`, bytes: headersUnits(rng, id, headerBlock(rng, requestFields(rng)), rng.chance(0.5)) };
  }],
  [3, (rng, s) => {
    const id = newStream(rng, s);
    return { label: `HEADERS then RST_STREAM at once on ${id}`, bytes: Buffer.concat([headersUnits(rng, id, literalBlock(requestFields(rng)), rng.chance(0.5)), frame(FrameType.RST_STREAM, 0, id, u32(rng.pick([ErrorCode.CANCEL, ErrorCode.NO_ERROR, 0xff, rng.int(16)])))]) };
  }],
  [2, (rng, s) => ({ label: 'RST_STREAM', bytes: frame(FrameType.RST_STREAM, 0, someStream(rng, s), u32(rng.int(16))) })],
  [3, (rng, s) => ({ label: 'WINDOW_UPDATE', bytes: frame(FrameType.WINDOW_UPDATE, 0, rng.chance(0.5) ? 0 : someStream(rng, s), u32(rng.u32())) })],
  [2, (rng, s) => {
    const pad = rng.int(300);
    return { label: 'DATA with bad padding', bytes: frame(FrameType.DATA, Flag.PADDED | (rng.chance(0.5) ? Flag.END_STREAM : 0), someStream(rng, s), Buffer.concat([Buffer.from([pad & 0xff]), rng.bytes(rng.int(pad + 2))])) };
  }],
  [2, (rng, s) => ({ label: 'DATA', bytes: frame(FrameType.DATA, rng.int(2), someStream(rng, s), rng.chance(0.5) ? RANGE_BODY : rng.bytes(rng.int(100))) })],
  [2, (rng, s) => ({ label: 'CONTINUATION alone', bytes: frame(FrameType.CONTINUATION, rng.chance(0.5) ? Flag.END_HEADERS : 0, someStream(rng, s), literalBlock(requestFields(rng))) })],
  [2, (rng) => ({ label: 'HEADERS on an even stream', bytes: headersUnits(rng, 2 * (1 + rng.int(5)), literalBlock(requestFields(rng)), true) })],
  [3, (rng) => {
    const n = 1 + rng.int(4);
    const ids = [Setting.HEADER_TABLE_SIZE, Setting.ENABLE_PUSH, Setting.MAX_CONCURRENT_STREAMS, Setting.INITIAL_WINDOW_SIZE, Setting.MAX_FRAME_SIZE, Setting.MAX_HEADER_LIST_SIZE, 0, 7, 0xffff];
    const pairs = Array.from({ length: n }, () => [rng.pick(ids), rng.u32()] as const);
    const flags = rng.chance(0.1) ? Flag.ACK : 0;
    return { label: 'SETTINGS', bytes: frame(FrameType.SETTINGS, flags, rng.chance(0.05) ? 1 : 0, rng.chance(0.1) ? settingsPayload(pairs).subarray(1) : settingsPayload(pairs)) };
  }],
  [1, (rng) => {
    const n = 10 + rng.int(300);
    return { label: `${n} PINGs`, bytes: Buffer.concat(Array.from({ length: n }, (_, i) => frame(FrameType.PING, 0, 0, Buffer.from([0, 0, 0, 0, (i >> 24) & 0xff, (i >> 16) & 0xff, (i >> 8) & 0xff, i & 0xff])))) };
  }],
  [1, (rng) => ({ label: 'PING (any length, flags)', bytes: frame(FrameType.PING, rng.int(256), rng.chance(0.9) ? 0 : 1, rng.bytes(rng.pick([8, 8, 0, 7, 9, 64]))) })],
  [1, (rng, s) => ({ label: 'PRIORITY', bytes: frame(FrameType.PRIORITY, 0, someStream(rng, s), rng.chance(0.9) ? priorityBlock(rng.int(s.next + 2), 1 + rng.int(256), rng.chance(0.5)) : rng.bytes(rng.int(8))) })],
  [1, (rng) => ({ label: 'GOAWAY', bytes: frame(FrameType.GOAWAY, 0, rng.chance(0.9) ? 0 : 3, Buffer.concat([u32(rng.u32()), u32(rng.int(20)), rng.bytes(rng.int(16))])) })],
  [1, (rng, s) => ({ label: 'PUSH_PROMISE', bytes: frame(FrameType.PUSH_PROMISE, Flag.END_HEADERS, someStream(rng, s), Buffer.concat([u32(2), literalBlock(requestFields(rng))])) })],
  [2, (rng, s) => ({ label: 'a random frame', bytes: frame(rng.int(14), rng.int(256), rng.chance(0.5) ? 0 : someStream(rng, s), rng.bytes(rng.int(40)), { reservedBit: rng.chance(0.1) }) })],
  [1, (rng, s) => {
    const whole = frame(rng.int(10), rng.int(256), someStream(rng, s), rng.bytes(rng.int(40)));
    return { label: 'a frame whose length field lies', bytes: Buffer.concat([Buffer.from([0, rng.int(64), rng.int(256)]), whole.subarray(3)]) };
  }],
  [1, (rng) => ({ label: 'random bytes', bytes: rng.bytes(1 + rng.int(64)) })],
  [1, (rng, s) => {
    const f = frame(FrameType.HEADERS, Flag.END_HEADERS, newStream(rng, s), literalBlock(requestFields(rng)));
    return { label: 'a truncated frame', bytes: f.subarray(0, rng.int(f.length)) };
  }],
];

const TOTAL_WEIGHT = ACTIONS.reduce((n, [w]) => n + w, 0);

function pickAction(rng: Rng): Action {
  let x = rng.int(TOTAL_WEIGHT);
  for (const [w, a] of ACTIONS) {
    if (x < w) return a;
    x -= w;
  }
  return ACTIONS[0][1];
}

/** The connection script of `seed`: a preface (mostly intact), SETTINGS, 1–12 actions, cuts. */
export function generateScript(seed: number): ConnectionScript {
  const rng = new Rng(seed);
  const units: ScriptUnit[] = [];
  if (rng.chance(0.97)) units.push({ label: 'preface', bytes: PREFACE });
  else units.push({ label: 'broken preface', bytes: Buffer.concat([PREFACE.subarray(0, rng.int(PREFACE.length)), rng.bytes(rng.int(8))]) });
  if (rng.chance(0.9)) units.push({ label: 'SETTINGS', bytes: frame(FrameType.SETTINGS, 0, 0, settingsPayload(rng.chance(0.3) ? [[Setting.INITIAL_WINDOW_SIZE, rng.pick([0, 1, 10, 65_535])]] : [])) });
  const state = { next: 1 };
  const count = 1 + rng.int(12);
  for (let i = 0; i < count; i++) units.push(pickAction(rng)(rng, state));
  const total = units.reduce((n, u) => n + u.bytes.length, 0);
  const cuts = rng.chance(0.5) ? [] : Array.from({ length: 1 + rng.int(6) }, () => rng.int(total)).sort((a, b) => a - b);
  return { seed, units, cuts };
}

/** The script's bytes, in one Buffer. */
export function scriptBytes(script: ConnectionScript): Buffer {
  return Buffer.concat(script.units.map((u) => u.bytes));
}

/** The script as text: its seed and one line of hex per unit. */
export function describeScript(script: ConnectionScript): string {
  return [`seed ${script.seed}, cuts [${script.cuts.join(', ')}]`, ...script.units.map((u, i) => `  #${i} ${u.label}: ${u.bytes.toString('hex')}`)].join('\n');
}
