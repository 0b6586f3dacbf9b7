/** Helpers for the HPACK tests: hex blocks, decoding to pairs, the dynamic table as pairs. */
import assert from 'node:assert/strict';
import type { HpackDecoder } from '../../../../server/transport/hpack/decoder.js';

export type Pairs = readonly (readonly [string, string])[];

/** `hex` with spaces and newlines ignored, as the RFC prints blocks. */
export function hex(s: string): Buffer {
  return Buffer.from(s.replace(/\s+/g, ''), 'hex');
}

/** Decodes `block`, asserting 'ok', as [name, value] pairs. */
export function decodeOk(decoder: HpackDecoder, block: Buffer): Pairs {
  const r = decoder.decode(block);
  assert.equal(r.kind, 'ok', r.kind === 'malformed' ? r.reason : r.kind);
  return r.kind === 'ok' ? r.fields.map((f) => [f.name, f.value] as const) : [];
}

/** The dynamic table, newest first, as [name, value] pairs. */
export function tableOf(decoder: HpackDecoder): Pairs {
  const entries: (readonly [string, string])[] = [];
  for (let i = 1; i <= decoder.table.length; i++) {
    const e = decoder.table.get(i)!;
    entries.push([e.name, e.value]);
  }
  return entries;
}

/** Decodes `block` with a fresh context, asserting 'malformed'; returns the reason. */
export function refusal(decoder: HpackDecoder, block: Buffer): string {
  const r = decoder.decode(block);
  assert.equal(r.kind, 'malformed', `expected malformed, got ${JSON.stringify(r)}`);
  return r.kind === 'malformed' ? r.reason : '';
}
