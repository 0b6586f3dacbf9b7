/**
 * Lease ids as etcdctl takes them: hexadecimal int64, with its error text.
 */
import { parseInt64 } from '../../cli/command-spec.js';

export function parseLeaseId(text: string): bigint | { readonly message: string } {
  const v = parseInt64(text, 'lease', 16);
  if (typeof v === 'bigint') return v;
  const reason = v.message.replace(/^.*flag: /, '');
  return { message: `bad lease ID arg (${reason}), expecting ID in Hex` };
}
