/**
 * Property: any sequence of set / delete / get on a small key space behaves like a plain
 * model (a map of files and directories): same successes, same error codes and causes,
 * same values, same directory listings; the index moves by one per successful write only.
 * V2_PROPERTY_RUNS overrides the number of runs.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { V2Store } from '../../../server/v2store/store.js';
import { T0 } from './helpers.js';

type Entry = { kind: 'file'; value: string } | { kind: 'dir' };
type Outcome = { ok: true; value?: string; children?: string[] } | { ok: false; code: number; cause: string };

class Model {
  readonly entries = new Map<string, Entry>([['/1', { kind: 'dir' }]]);
  index = 0n;

  /** The node at path, or the error a lookup reports. */
  lookup(path: string): { ok: true; entry: Entry } | { ok: false; code: number; cause: string } {
    const segs = path.split('/').filter(Boolean);
    let cur = '';
    for (const seg of segs) {
      const parent = cur === '' ? undefined : this.entries.get(cur);
      if (parent?.kind === 'file') return { ok: false, code: 104, cause: cur };
      cur = `${cur}/${seg}`;
      if (!this.entries.has(cur)) return { ok: false, code: 100, cause: cur };
    }
    return { ok: true, entry: this.entries.get(cur) as Entry };
  }

  set(path: string, value: string): Outcome {
    const segs = path.split('/').filter(Boolean);
    let cur = '';
    for (const seg of segs.slice(0, -1)) {
      cur = `${cur}/${seg}`;
      const e = this.entries.get(cur);
      if (e?.kind === 'file') return { ok: false, code: 104, cause: cur };
    }
    if (this.entries.get(path)?.kind === 'dir') return { ok: false, code: 102, cause: path };
    cur = '';
    for (const seg of segs.slice(0, -1)) {
      cur = `${cur}/${seg}`;
      if (!this.entries.has(cur)) this.entries.set(cur, { kind: 'dir' });
    }
    this.entries.set(path, { kind: 'file', value });
    this.index++;
    return { ok: true, value };
  }

  delete(path: string): Outcome {
    const found = this.lookup(path);
    if (!found.ok) return found;
    if (found.entry.kind === 'dir') return { ok: false, code: 102, cause: path };
    this.entries.delete(path);
    this.index++;
    return { ok: true };
  }

  get(path: string): Outcome {
    const found = this.lookup(path);
    if (!found.ok) return found;
    if (found.entry.kind === 'file') return { ok: true, value: found.entry.value };
    const children = [...this.entries.keys()]
      .filter((k) => k.startsWith(`${path}/`) && !k.slice(path.length + 1).includes('/') && !k.slice(path.length + 1).startsWith('_'))
      .sort();
    return { ok: true, children };
  }
}

const segment = fc.constantFrom('a', 'b', '_h');
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((segs) => `/1/${segs.join('/')}`);
const op = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), path, value: fc.string({ maxLength: 3 }) }),
  fc.record({ kind: fc.constant('delete' as const), path }),
  fc.record({ kind: fc.constant('get' as const), path: fc.oneof(path, fc.constant('/1')) }),
);

void it('set/delete/get agree with a simple model', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const store = new V2Store();
      const model = new Model();
      for (const o of ops) {
        const r =
          o.kind === 'set'
            ? store.set(o.path, { value: o.value }, T0)
            : o.kind === 'delete'
              ? store.delete(o.path, {}, T0)
              : store.get(o.path, { sorted: true }, T0);
        const expected = o.kind === 'set' ? model.set(o.path, o.value) : o.kind === 'delete' ? model.delete(o.path) : model.get(o.path);
        const actual: Outcome = r.ok
          ? o.kind === 'get'
            ? r.value.node.dir
              ? { ok: true, children: (r.value.node.nodes ?? []).map((n) => n.key) }
              : { ok: true, value: r.value.node.value }
            : o.kind === 'set'
              ? { ok: true, value: r.value.node.value }
              : { ok: true }
          : { ok: false, code: r.error.errorCode, cause: r.error.cause ?? '' };
        assert.deepEqual(actual, expected, `${o.kind} ${o.path}`);
        assert.equal(store.index(), model.index);
      }
      const files = [...model.entries].filter(([, e]) => e.kind === 'file');
      for (const [p, e] of files) {
        const got = store.get(p, {}, T0);
        assert.ok(got.ok && got.value.node.value === (e as { value: string }).value);
      }
    }),
    { numRuns: Number(process.env.V2_PROPERTY_RUNS ?? 300) },
  );
});
