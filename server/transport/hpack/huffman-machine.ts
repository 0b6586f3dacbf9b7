/**
 * The Huffman decoder as a 4-bit automaton, built once at load from the code table.
 *
 * States are the 256 inner nodes of the code tree (257 leaves); state 0 is the root, i.e. "at
 * a symbol boundary". `step(state, nibble)` walks four bits down the tree: a leaf emits its
 * symbol and goes back to the root (every code is 5 bits or more, so one nibble completes at
 * most one symbol); reaching EOS is a failure (RFC 7541 §5.2: EOS inside a string is an error).
 *
 * At the end of a string the bits of the unfinished code are padding; `END_CHECK[state]` says
 * whether that padding is acceptable: fewer than 8 bits, all ones (a prefix of EOS).
 */
import { EOS, HUFFMAN_CODES, HUFFMAN_LENGTHS } from './huffman-table.js';

/** Flags in a step entry: bits 0-7 next state, 8-15 emitted symbol. */
export const STEP_EMITS = 1 << 16;
export const STEP_FAILS = 1 << 17;

/** What the padding left in a state at the end of a string is worth. */
export const EndCheck = { Ok: 0, TooLong: 1, NotOnes: 2 } as const;
export type EndCheck = (typeof EndCheck)[keyof typeof EndCheck];

interface Tree {
  /** children[2 * node + bit]: > 0 an inner node, < 0 the leaf of symbol -child - 1. */
  readonly children: Int16Array;
  readonly depth: Uint8Array;
  readonly allOnes: Uint8Array;
}

function buildTree(): Tree {
  const children = new Int16Array(512);
  const depth = new Uint8Array(256);
  const allOnes = new Uint8Array(256);
  allOnes[0] = 1;
  let nodes = 1;
  for (let symbol = 0; symbol <= EOS; symbol++) {
    const length = HUFFMAN_LENGTHS[symbol]!;
    const code = HUFFMAN_CODES[symbol]!;
    let node = 0;
    for (let i = length - 1; i >= 0; i--) {
      const bit = Math.floor(code / 2 ** i) & 1;
      const slot = 2 * node + bit;
      if (i === 0) {
        if (children[slot] !== 0) throw new Error(`HPACK Huffman table: code of ${symbol} collides`);
        children[slot] = -symbol - 1;
      } else {
        if (children[slot]! < 0) throw new Error(`HPACK Huffman table: code of ${symbol} extends a shorter code`);
        if (children[slot] === 0) {
          if (nodes === 256) throw new Error('HPACK Huffman table: more than 256 inner nodes');
          children[slot] = nodes;
          depth[nodes] = depth[node]! + 1;
          allOnes[nodes] = allOnes[node]! & bit;
          nodes++;
        }
        node = children[slot]!;
      }
    }
  }
  if (nodes !== 256 || children.includes(0)) throw new Error('HPACK Huffman table: the code is not complete');
  return { children, depth, allOnes };
}

const TREE = buildTree();

function buildSteps(tree: Tree): Int32Array {
  const steps = new Int32Array(256 * 16);
  for (let state = 0; state < 256; state++) {
    for (let nibble = 0; nibble < 16; nibble++) {
      let node = state;
      let entry = 0;
      for (let i = 3; i >= 0; i--) {
        const child = tree.children[2 * node + ((nibble >> i) & 1)]!;
        if (child > 0) {
          node = child;
          continue;
        }
        const symbol = -child - 1;
        if (symbol === EOS) {
          entry |= STEP_FAILS;
          break;
        }
        entry |= STEP_EMITS | (symbol << 8);
        node = 0;
      }
      steps[state * 16 + nibble] = entry | node;
    }
  }
  return steps;
}

/** steps[state * 16 + nibble]: next state | emitted symbol << 8 | STEP_EMITS | STEP_FAILS. */
export const HUFFMAN_STEPS: Readonly<Int32Array> = buildSteps(TREE);

/** END_CHECK[state]: whether a string may end in that state (see the header). */
export const END_CHECK: Readonly<Uint8Array> = Uint8Array.from({ length: 256 }, (_, s) =>
  TREE.allOnes[s] === 0 ? EndCheck.NotOnes : TREE.depth[s]! > 7 ? EndCheck.TooLong : EndCheck.Ok,
);
