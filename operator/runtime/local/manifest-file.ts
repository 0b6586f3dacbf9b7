/**
 * The manifest file local mode runs from: read → a defaulted, validated KvstoreCluster (the
 * same schema as the CRD), and the status written back into the same file.
 *
 * Contract:
 * - `load()` parses the YAML (one document), validates it for the `local` target and fills in
 *   the defaults; the cluster's `metadata.generation` is a counter this process keeps, raised
 *   whenever the spec differs from the last one loaded (as the API server does), starting from
 *   the status's observedGeneration found in the file; what may not change once the cluster
 *   exists (spec.storage, spec.tls: the API server's CEL rules) is refused against the last
 *   manifest loaded;
 * - `writeStatus()` re-reads the file, replaces only its `status` node (the user's spec,
 *   comments and formatting stay) and writes it atomically; an unchanged text is not rewritten.
 *   It never writes over a file that is not a KvstoreCluster at that moment (e.g. caught
 *   half-written by an editor), and when the file changes between its read and its write it
 *   starts over from the new text, so a user's edit is not lost;
 * - errors are values naming the file and the field.
 */
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { API_VERSION, KIND } from '../../api/constants.js';
import { parseCluster } from '../../api/parse.js';
import { validateClusterUpdate } from '../../api/validate.js';
import type { KvstoreCluster, KvstoreClusterStatus } from '../../api/types.js';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';
import { writeFileAtomic } from './state-file.js';

function isManifest(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return o.apiVersion === API_VERSION && o.kind === KIND && typeof o.spec === 'object' && o.spec !== null;
}

export class ManifestFile {
  private lastSpec = '';
  private generation = 0;
  private last: KvstoreCluster | undefined;

  constructor(readonly path: string) {}

  async load(): Promise<PortResult<KvstoreCluster>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      return portFail(`read ${this.path}: ${(err as Error).message}`);
    }
    const doc = parseDocument(text);
    if (doc.errors.length > 0) return portFail(`${this.path}: ${doc.errors[0].message}`);
    const raw: unknown = doc.toJS();
    const parsed = parseCluster(raw, { target: 'local' });
    if (parsed.kind === 'Invalid') {
      return portFail(`${this.path}: ${parsed.errors.map((e) => `${e.path === '' ? '' : `${e.path} `}${e.message}`).join('; ')}`);
    }
    if (this.last !== undefined) {
      const fixed = validateClusterUpdate(this.last, raw, { target: 'local' });
      if (fixed.length > 0) return portFail(`${this.path}: ${fixed.map((e) => `${e.path} ${e.message}`).join('; ')}`);
    }
    this.last = parsed.cluster;
    const spec = JSON.stringify(parsed.cluster.spec);
    if (this.lastSpec === '') {
      // First load: continue from the generation the file's status last observed.
      this.lastSpec = spec;
      this.generation = Math.max(1, parsed.cluster.status?.observedGeneration ?? 0);
    } else if (spec !== this.lastSpec) {
      this.lastSpec = spec;
      this.generation++;
    }
    const c = parsed.cluster;
    return portOk({ ...c, metadata: { ...c.metadata, generation: this.generation } });
  }

  async writeStatus(status: KvstoreClusterStatus): Promise<PortResult<void>> {
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        const text = await readFile(this.path, 'utf8');
        const doc = parseDocument(text);
        if (doc.errors.length > 0) return portFail(`${this.path}: ${doc.errors[0].message}; status not written`);
        const js: unknown = doc.toJS();
        if (!isManifest(js)) return portFail(`${this.path} is not a ${KIND} manifest right now (being edited?); status not written`);
        doc.set('status', doc.createNode(JSON.parse(JSON.stringify(status)) as unknown));
        const next = doc.toString({ lineWidth: 0 });
        if (next === text) return portOk(undefined);
        // Edited meanwhile (checked once the new text is on disk, just before the rename): start over from the new text.
        if (await writeFileAtomic(this.path, next, async () => (await readFile(this.path, 'utf8')) === text)) return portOk(undefined);
      }
      return portFail(`${this.path} keeps changing; status not written`);
    } catch (err) {
      return portFail(`write status into ${this.path}: ${(err as Error).message}`);
    }
  }
}
