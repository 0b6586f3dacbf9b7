/**
 * The order of a deployment's client endpoints for one run. The generator deals connections
 * round-robin over this list (connection k → endpoint k mod n), so the order decides which member
 * the 1-connection rows talk to and which member gets the extra connection of an uneven split.
 *
 * Followers come first and the leader last (or the leader first, on request), so a 1-client row
 * hits a member of the same role in etcd and in kvstore whatever member won the election. Pure.
 */

export const ENDPOINT_ORDERS = ['followers-first', 'leader-first'] as const;
export type EndpointOrder = (typeof ENDPOINT_ORDERS)[number];

/**
 * Indices into the members list, in dealing order. Members keep their relative order within each
 * role; with no known leader (`leader` null) the members' own order is used.
 */
export function orderMembers(count: number, leader: number | null, order: EndpointOrder): number[] {
  const all = Array.from({ length: count }, (_, i) => i);
  if (leader === null) return all;
  const followers = all.filter((i) => i !== leader);
  return order === 'leader-first' ? [leader, ...followers] : [...followers, leader];
}

/** How many of `connections` connections each position of the dealing order receives. */
export function connectionsPerPosition(connections: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => Math.floor(connections / count) + (i < connections % count ? 1 : 0));
}
