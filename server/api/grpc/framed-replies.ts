/**
 * Reply serializers for the hot methods (the KV unary calls, and the messages of the Watch and
 * LeaseKeepAlive streams) that write the gRPC message prefix (compressed flag 0, u32 big-endian
 * length) and the protobuf response into one buffer: the generated
 * `responseSerialize` copies the encoded bytes twice (the writer's `finish`, `Buffer.from`)
 * before the transport copies them once more behind a prefix.
 */
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import * as pb from '../../../proto/gen/etcd/rpc.js';

const PREFIX = new Uint8Array(5);

interface Encoder<T> {
  encode(message: T, writer?: BinaryWriter): BinaryWriter;
}

function framer<T>(type: Encoder<T>): (value: unknown) => Buffer {
  return (value) => {
    const writer = new BinaryWriter();
    writer.raw(PREFIX);
    const bytes = type.encode(value as T, writer).finish();
    const frame = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    frame.writeUInt32BE(frame.length - PREFIX.length, 1);
    return frame;
  };
}

/** Method path → framed serializer, for the KV methods and the two bidi streams. */
export function replyFramers(): ReadonlyMap<string, (value: unknown) => Buffer> {
  return new Map([
    [pb.KVService.range.path, framer(pb.RangeResponse)],
    [pb.KVService.put.path, framer(pb.PutResponse)],
    [pb.KVService.deleteRange.path, framer(pb.DeleteRangeResponse)],
    [pb.KVService.txn.path, framer(pb.TxnResponse)],
    [pb.WatchService.watch.path, framer(pb.WatchResponse)],
    [pb.LeaseService.leaseKeepAlive.path, framer(pb.LeaseKeepAliveResponse)],
  ]);
}
