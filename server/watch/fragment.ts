/**
 * Splitting of large event responses for watchers created with `fragment=true`
 * (ETCD-FACTS §3.8): a response whose encoded size is ≥ `maxBytes` and that carries at least
 * two events is cut into parts. Each part takes events while its size stays below `maxBytes`
 * (a part always holds at least one event); every part but the last has `fragment=true`; all
 * parts share the header and watch id. Event order is preserved.
 */
import { Event } from '../../proto/gen/etcd/kv.js';
import { WatchResponse } from '../../proto/gen/etcd/rpc.js';

const varintLength = (n: number): number => {
  let len = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    len++;
  }
  return len;
};

/** Bytes one event adds to a WatchResponse (field 11: one tag byte, length, body). */
const eventFieldBytes = (ev: Event): number => {
  const body = Event.encode(ev).finish().length;
  return 1 + varintLength(body) + body;
};

export function fragmentResponse(resp: WatchResponse, maxBytes: number): WatchResponse[] {
  if (resp.events.length < 2) return [resp];
  if (WatchResponse.encode(resp).finish().length < maxBytes) return [resp];
  const base = WatchResponse.encode({ ...resp, events: [], fragment: true }).finish().length;
  const parts: WatchResponse[] = [];
  let i = 0;
  while (i < resp.events.length) {
    const events: Event[] = [];
    let size = base;
    for (; i < resp.events.length; i++) {
      const ev = resp.events[i] as Event;
      const add = eventFieldBytes(ev);
      if (events.length > 0 && size + add >= maxBytes) break;
      events.push(ev);
      size += add;
    }
    parts.push({ ...resp, events, fragment: i < resp.events.length });
  }
  return parts;
}
