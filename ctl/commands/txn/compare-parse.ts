/**
 * One compare line of `txn` (`<target>("<key>") <op> "<value>"`) → a Compare, with etcdctl's
 * error texts. Targets: ver|version, c|create, m|mod (decimal), val|value, lease (hex).
 */
import type { Compare } from '../../../proto/gen/etcd/rpc.js';
import { compare, type CompareOp } from '../../client/index.js';
import { goQuote } from '../../printer/go-format.js';
import { GoScanner } from './go-scan.js';

/** A line that does not parse; `panic` marks the cases where etcdctl itself panics. */
export interface CompareParseError {
  readonly message: string;
  readonly panic?: boolean;
}

const OPS: readonly string[] = ['=', '!=', '>', '<'];

export function parseCompare(line: string): Compare | CompareParseError {
  const open = line.indexOf('(');
  if (open < 0) return { message: `malformed comparison: ${line}` };
  const target = line.slice(0, open);
  const sc = new GoScanner(line.slice(open + 1));
  let key: Buffer = Buffer.alloc(0);
  let op = '';
  let val: Buffer = Buffer.alloc(0);
  let n = 0;
  const k = sc.quoted();
  if (k !== undefined) {
    key = k;
    n = 1;
    if (sc.literal(')') && sc.spaces()) {
      const o = sc.token();
      if (o !== undefined) {
        op = o;
        n = 2;
        if (sc.spaces()) {
          const v = sc.quoted();
          if (v !== undefined) {
            val = v;
            n = 3;
          }
        }
      }
    }
  }
  if (n !== 3) return { message: `malformed comparison: ${line}; got ${target}(${goQuote(key)}) ${op} ${goQuote(val)}` };
  const valText = val.toString('utf8');
  const int = (base: 10 | 16): bigint | undefined => {
    const ok = base === 10 ? /^[+-]?\d+$/.test(valText) : /^[+-]?[0-9a-fA-F]+$/.test(valText);
    if (!ok) return undefined;
    const neg = valText.startsWith('-');
    const v = BigInt(base === 16 ? `0x${valText.replace(/^[+-]/, '')}` : valText.replace(/^\+/, '').replace(/^-/, '')) * (neg ? -1n : 1n);
    return v >= -(2n ** 63n) && v < 2n ** 63n ? v : undefined;
  };
  const invalid = { message: `invalid txn compare request: ${line}` };
  if (!OPS.includes(op)) return { message: 'Unknown result op', panic: true };
  const cop = op as CompareOp;
  switch (target) {
    case 'ver':
    case 'version': {
      const v = int(10);
      return v === undefined ? invalid : compare(key, cop, { target: 'version', value: v });
    }
    case 'c':
    case 'create': {
      const v = int(10);
      return v === undefined ? invalid : compare(key, cop, { target: 'create', value: v });
    }
    case 'm':
    case 'mod': {
      const v = int(10);
      return v === undefined ? invalid : compare(key, cop, { target: 'mod', value: v });
    }
    case 'val':
    case 'value':
      return compare(key, cop, { target: 'value', value: val });
    case 'lease': {
      const v = int(16);
      return v === undefined ? invalid : compare(key, cop, { target: 'lease', value: v });
    }
    default:
      return { message: `malformed comparison: ${line} (unknown target ${target})` };
  }
}
