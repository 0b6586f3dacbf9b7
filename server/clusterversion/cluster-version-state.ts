/**
 * The replicated cluster version: unset until the leader first decides it, then changed
 * only by applying ClusterVersionSet. Persisted in the `cluster` bucket under
 * `clusterVersion` as `major.minor.0`.
 */
import { Bucket, type BackendOp, type ReadView } from '../storage/backend.js';
import { majorMinor } from './versions.js';

const KEY = Buffer.from('clusterVersion');

export class ClusterVersionState {
  #current: string | undefined;

  /** The stored version, as `major.minor`, or undefined. */
  static async load(view: ReadView): Promise<ClusterVersionState> {
    const s = new ClusterVersionState();
    const raw = await view.get(Bucket.Cluster, KEY);
    s.#current = raw === undefined ? undefined : majorMinor(raw.toString('utf8'));
    return s;
  }

  /** Re-reads the stored version (after the backend's contents were replaced by a snapshot). */
  async reload(view: ReadView): Promise<void> {
    this.#current = (await ClusterVersionState.load(view)).#current;
  }

  /** `major.minor`, or undefined before the first decision. */
  get current(): string | undefined {
    return this.#current;
  }

  /** As /version reports it: `major.minor.0` or `not_decided`. */
  get reported(): string {
    return this.#current === undefined ? 'not_decided' : `${this.#current}.0`;
  }

  /** Applies a decided version; returns the previous one and the op that persists it. */
  set(version: string): { readonly previous: string | undefined; readonly op: BackendOp } | undefined {
    const mm = majorMinor(version);
    if (mm === undefined) return undefined;
    const previous = this.#current;
    this.#current = mm;
    return { previous, op: { type: 'put', bucket: Bucket.Cluster, key: KEY, value: Buffer.from(`${mm}.0`) } };
  }
}
