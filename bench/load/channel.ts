/**
 * Opens a KV client on its own HTTP/2 connection (no subchannel sharing between clients, so
 * N clients really are N connections) with channelz off, as a production client would run.
 */
import { credentials } from '@grpc/grpc-js';
import { KVClient } from '../../proto/gen/etcd/rpc.js';

export function openKv(target: string): KVClient {
  return new KVClient(target, credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
    'grpc.enable_channelz': 0,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
  });
}

/** Resolves once the channel is connected; rejects after `timeoutMs`. */
export function waitConnected(kv: KVClient, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    kv.waitForReady(Date.now() + timeoutMs, (err) =>
      err ? reject(new Error(`could not connect within ${timeoutMs} ms`, { cause: err })) : resolve(),
    );
  });
}
