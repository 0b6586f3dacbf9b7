/**
 * etcdctl's splitting of a txn request line into arguments: double-quoted strings (Go
 * escapes), single-quoted strings and bare words.
 *
 * Kept on purpose: etcdctl 3.4 strips a single-quoted argument to the characters between
 * index 1 and (number of arguments − 1), not to its closing quote, so `put 'k1' 'v'` puts
 * key `k` and value `v`... exactly as the Go tool does. A slice past the end is an error.
 */
import { unquoteGo } from './go-scan.js';

const TOKEN = /"(?:[^"\\]|\\.)*"|'[^']*'|[^'"\s]\S*[^'"\s]?/g;

export function argify(line: string): string[] | { readonly message: string } {
  const args = line.match(TOKEN) ?? [];
  const out: string[] = [];
  for (const a of args) {
    if (a.startsWith("'")) {
      const end = args.length - 1;
      if (end < 1 || end > a.length) return { message: `runtime error: slice bounds out of range [:${end}] with length ${a.length}` };
      out.push(a.slice(1, end));
    } else if (a.startsWith('"')) {
      const v = unquoteGo(a.slice(1, -1));
      if (v === undefined) return { message: 'invalid syntax' };
      out.push(v.toString('utf8'));
    } else out.push(a);
  }
  return out;
}
