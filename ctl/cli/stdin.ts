/**
 * Reading standard input: all of it (put's value), or line by line (txn, watch -i).
 */
export async function readAll(stdin: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stdin) parts.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return Buffer.concat(parts);
}

/**
 * A line reader over stdin: `next()` gives the next line including its `\n`, the last
 * unterminated part (without `\n`), or undefined at end of input.
 */
export class LineReader {
  private buf = '';
  private done = false;
  private readonly it: AsyncIterator<Buffer | string>;

  constructor(stdin: AsyncIterable<Buffer | string>) {
    this.it = stdin[Symbol.asyncIterator]();
  }

  async next(): Promise<string | undefined> {
    for (;;) {
      const nl = this.buf.indexOf('\n');
      if (nl >= 0) {
        const line = this.buf.slice(0, nl + 1);
        this.buf = this.buf.slice(nl + 1);
        return line;
      }
      if (this.done) {
        if (this.buf === '') return undefined;
        const rest = this.buf;
        this.buf = '';
        return rest;
      }
      const r = await this.it.next();
      if (r.done === true) this.done = true;
      else this.buf += typeof r.value === 'string' ? r.value : r.value.toString('utf8');
    }
  }
}
