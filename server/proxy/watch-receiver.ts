/**
 * One client watcher's view of a shared upstream watch (pure): which ranges may share, whether a
 * range is watchable, and what a member's response becomes for one receiver — its own watch id,
 * its filters (NOPUT, NODELETE), prev_kv only if asked, no event below its next revision, a
 * progress notification only if asked, and the parts of a fragmented response ended properly.
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import type { WatchCreateRequest, WatchResponse } from '../../proto/gen/etcd/rpc.js';

/** The per-receiver state this view reads and advances. */
export interface ReceiverState {
  readonly id: bigint;
  nextRev: number;
  readonly progress: boolean;
  readonly prevKv: boolean;
  readonly noPut: boolean;
  readonly noDelete: boolean;
  /** Parts of a fragmented response were sent to it and the last part is still to come. */
  inFragment: boolean;
}

/** Watchers that may share an upstream watch: same key, same range_end, same fragment choice. */
export function groupKeyOf(req: WatchCreateRequest): string {
  return `${req.key.toString('hex')}/${req.rangeEnd.toString('hex')}/${req.fragment ? 'f' : ''}`;
}

/** The member's refusal of an empty range (an empty key counts as `\x00`, as on the member). */
export function rangeProblem(key: Buffer, rangeEnd: Buffer): string | undefined {
  const k = key.length === 0 ? Buffer.from([0]) : key;
  if (rangeEnd.length === 0 || (rangeEnd.length === 1 && rangeEnd[0] === 0)) return undefined;
  return Buffer.compare(rangeEnd, k) <= 0 ? 'mvcc: watcher range is empty' : undefined;
}

const PUT = 0;
const DELETE = 1;

/**
 * What `r` (an event or progress response of the shared watch, not created nor canceled) becomes
 * for `rx`, or undefined when nothing is to be sent; advances `rx`'s next revision.
 */
export function receiverView(rx: ReceiverState, r: WatchResponse): WatchResponse | undefined {
  if (r.events.length === 0 && r.compactRevision === 0n) {
    if (!r.fragment && rx.inFragment) {
      rx.inFragment = false;
      return { ...r, watchId: rx.id };
    }
    return rx.progress && !r.fragment ? { ...r, watchId: rx.id } : undefined;
  }
  const events: Event[] = [];
  let lastRev = 0;
  for (const ev of r.events) {
    const rev = Number(ev.kv?.modRevision ?? 0n);
    if (rev < rx.nextRev) continue;
    lastRev = rev;
    if ((rx.noPut && ev.type === PUT) || (rx.noDelete && ev.type === DELETE)) continue;
    events.push(rx.prevKv ? ev : { ...ev, prevKv: undefined });
  }
  if (!r.fragment && lastRev >= rx.nextRev) rx.nextRev = lastRev + 1;
  const closesFragments = !r.fragment && rx.inFragment;
  const send = events.length > 0 || closesFragments;
  rx.inFragment = r.fragment ? rx.inFragment || send : false;
  return send ? { ...r, watchId: rx.id, events } : undefined;
}
