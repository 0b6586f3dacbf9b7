/**
 * Splits a client→server stream body into its JSON values: grpc-gateway reads a streaming
 * request body with one Go json.Decoder, value after value (`{"create_request":…}{"cancel_request":…}`),
 * optionally separated by whitespace or newlines.
 *
 * Contract (pure, no I/O):
 * - `push(text)` takes the next piece of the body (already UTF-8 decoded, split anywhere, even
 *   inside a string or an escape) and returns the TEXT of every top-level value completed by
 *   it, in order (the caller reads each one exactly: go-json-scan.ts; numbers are never parsed
 *   here, so no digit of a 64-bit id is lost);
 * - a value is an object or array (tracked by nesting and strings only), a string, or a run of
 *   scalar characters (`null`, `5`, `true`, also junk such as `nul`); any other character is a
 *   one-character value. Syntax is NOT checked here: the caller's reader refuses a bad value
 *   with Go's words (`invalid character 'x' …`, `json: cannot unmarshal number into …`);
 * - one value above `maxValueChars` is an error; an error comes with the values completed
 *   before it in the same push; after it the splitter is dead (every later call repeats it);
 * - `end()` returns a scalar the body ended in, or `unexpected EOF` when it stops inside an
 *   object, array or string.
 */

/** The values completed by a push; on an error, those completed before it come with it. */
export type Split =
  | { readonly ok: true; readonly values: string[] }
  | { readonly ok: false; readonly message: string; readonly values: string[] };

export interface JsonObjectStream {
  push(text: string): Split;
  end(): Split;
}

const SCALAR = /[0-9A-Za-z.+-]/;
const isSpace = (c: string): boolean => c === ' ' || c === '\n' || c === '\r' || c === '\t';

export function createJsonObjectStream(maxValueChars: number): JsonObjectStream {
  let mode: 'idle' | 'container' | 'string' | 'scalar' = 'idle';
  let pending = ''; // text of the value being read, from earlier pushes
  let depth = 0;
  let inString = false;
  let escaped = false;
  let failure: string | undefined;

  const fail = (message: string, values: string[] = []): Split => {
    failure = message;
    return { ok: false, message, values };
  };

  return {
    push(text) {
      if (failure !== undefined) return { ok: false, message: failure, values: [] };
      const values: string[] = [];
      let start = 0; // where the unconsumed part of `text` begins
      const complete = (endExclusive: number): void => {
        values.push(pending + text.slice(start, endExclusive));
        pending = '';
        mode = 'idle';
        start = endExclusive;
      };
      for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        switch (mode) {
          case 'idle':
            start = i;
            if (isSpace(c)) start = i + 1;
            else if (c === '{' || c === '[') {
              mode = 'container';
              depth = 1;
              inString = false;
              escaped = false;
            } else if (c === '"') {
              mode = 'string';
              escaped = false;
            } else if (SCALAR.test(c)) mode = 'scalar';
            else complete(i + 1);
            break;
          case 'scalar':
            if (!SCALAR.test(c)) {
              complete(i);
              i--; // read this character again, between values
            }
            break;
          case 'string':
            if (escaped) escaped = false;
            else if (c === '\\') escaped = true;
            else if (c === '"') complete(i + 1);
            break;
          case 'container':
            if (inString) {
              if (escaped) escaped = false;
              else if (c === '\\') escaped = true;
              else if (c === '"') inString = false;
            } else if (c === '"') inString = true;
            else if (c === '{' || c === '[') depth++;
            else if ((c === '}' || c === ']') && --depth === 0) complete(i + 1);
            break;
        }
      }
      if (mode !== 'idle') {
        pending += text.slice(start);
        if (pending.length > maxValueChars) return fail(`request message larger than max (${pending.length} vs. ${maxValueChars})`, values);
      }
      return { ok: true, values };
    },
    end() {
      if (failure !== undefined) return { ok: false, message: failure, values: [] };
      if (mode === 'scalar') {
        const last = pending;
        pending = '';
        mode = 'idle';
        return { ok: true, values: [last] };
      }
      if (mode !== 'idle') return fail('unexpected EOF');
      return { ok: true, values: [] };
    },
  };
}
