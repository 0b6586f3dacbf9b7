/**
 * The watch hub: etcd v3 watch semantics for all client streams of one member.
 * See watch-hub.ts for the contract and types.ts for the ports and back-pressure signal.
 */
export { WatchHub } from './watch-hub.js';
export type { WatchFlow, WatchHubDeps, WatchSend, WatchStats } from './types.js';
export { CancelReason, InvalidWatchId } from './responses.js';
