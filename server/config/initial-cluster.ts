/**
 * --initial-cluster text: `<name>=<peer-url>[,<name>=<peer-url>…]`. A name may appear several
 * times (one member with several peer URLs); its URLs are grouped, deduplicated and sorted.
 * Members keep the order in which their names first appear.
 */
import { checkUrl } from './urls.js';
import type { InitialClusterMember } from './types.js';

export type InitialClusterResult =
  | { readonly ok: true; readonly members: readonly InitialClusterMember[] }
  | { readonly ok: false; readonly reason: string };

/** Parses --initial-cluster; '' gives no members. */
export function parseInitialCluster(text: string): InitialClusterResult {
  const byName = new Map<string, Set<string>>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    if (eq <= 0) return { ok: false, reason: `each entry must have the form <name>=<peer-url>, got ${JSON.stringify(entry)}` };
    const name = entry.slice(0, eq);
    const url = entry.slice(eq + 1).trim();
    const reason = checkUrl(url, { bind: false });
    if (reason !== undefined) return { ok: false, reason };
    const urls = byName.get(name) ?? new Set<string>();
    urls.add(url);
    byName.set(name, urls);
  }
  return { ok: true, members: [...byName].map(([name, urls]) => ({ name, peerUrls: [...urls].sort() })) };
}

/** The --initial-cluster text of a member list (inverse of parseInitialCluster up to order). */
export function formatInitialCluster(members: readonly InitialClusterMember[]): string {
  return members.flatMap((m) => m.peerUrls.map((u) => `${m.name}=${u}`)).join(',');
}
