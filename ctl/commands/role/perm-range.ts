/**
 * The key range of `role grant-permission` / `revoke-permission` (etcdctl's permRange):
 * `<key> [endkey]`, `--prefix` (range end = the prefix end), `--from-key` (range end `\0`);
 * an empty key means `\0` (with --prefix or --from-key: every key). Errors are etcdctl's texts.
 */
import { prefixEnd } from '../../client/index.js';

export function permRange(args: readonly string[], prefix: boolean, fromKey: boolean): { key: Buffer; rangeEnd: Buffer } | { error: string } {
  const key = args[0]!;
  if (prefix && fromKey) return { error: '--from-key and --prefix flags are mutually exclusive' };
  if (key.length === 0) return { key: Buffer.from([0]), rangeEnd: prefix || fromKey ? Buffer.from([0]) : Buffer.alloc(0) };
  if (args.length === 1) {
    if (prefix) return { key: Buffer.from(key), rangeEnd: prefixEnd(Buffer.from(key)) };
    return { key: Buffer.from(key), rangeEnd: fromKey ? Buffer.from([0]) : Buffer.alloc(0) };
  }
  if (prefix) return { error: 'unexpected endkey argument with --prefix flag' };
  if (fromKey) return { error: 'unexpected endkey argument with --from-key flag' };
  return { key: Buffer.from(key), rangeEnd: Buffer.from(args[1]!) };
}
