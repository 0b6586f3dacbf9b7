/**
 * Splits a client→server stream body into its JSON values: grpc-gateway reads a streaming
 * request body as a sequence of JSON objects (`{"create_request":…}{"cancel_request":…}`),
 * optionally separated by whitespace or newlines.
 *
 * Contract (pure, no I/O):
 * - `push(text)` takes the next piece of the body (already UTF-8 decoded, split anywhere, even
 *   inside a string or an escape) and returns the TEXT of every top-level value completed by
 *   it, in order (the caller reads each one exactly: go-json-scan.ts; numbers are never parsed
 *   here, so no digit of a 64-bit id is lost);
 * - only objects (and `null`) are values here; any other top-level character is an error (Go's
 *   wording), as is one value above `maxValueChars`; the inside of an object is only tracked for
 *   nesting and strings, its syntax is checked by the caller's reader;
 * - an error comes with the values completed before it in the same push;
 * - after an error the splitter is dead: every later call returns the same error;
 * - `end()` reports an error when the body stops inside a value.
 */
import { goQuoteChar } from './go-quote.js';

/** The values completed by a push; on an error, those completed before it come with it. */
export type Split =
  | { readonly ok: true; readonly values: string[] }
  | { readonly ok: false; readonly message: string; readonly values: string[] };

export interface JsonObjectStream {
  push(text: string): Split;
  end(): { readonly ok: true } | { readonly ok: false; readonly message: string };
}

export function createJsonObjectStream(maxValueChars: number): JsonObjectStream {
  let pending = ''; // text of the value being read (starts with '{' or a prefix of 'null')
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
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (depth === 0 && pending === '') {
          if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
            start = i + 1;
            continue;
          }
          if (c === '{') {
            depth = 1;
            start = i;
            continue;
          }
          if (c === 'n') {
            pending = 'n';
            start = i + 1;
            continue;
          }
          return fail(`invalid character ${goQuoteChar(c!)} looking for beginning of value`, values);
        }
        if (depth === 0) {
          // inside a bare `null`
          pending += c;
          if (!'null'.startsWith(pending)) return fail(`invalid character ${goQuoteChar(c!)} in literal null (expecting '${'null'[pending.length - 1]}')`, values);
          if (pending === 'null') {
            values.push('null');
            pending = '';
          }
          start = i + 1;
          continue;
        }
        if (inString) {
          if (escaped) escaped = false;
          else if (c === '\\') escaped = true;
          else if (c === '"') inString = false;
          continue;
        }
        if (c === '"') inString = true;
        else if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') {
          depth--;
          if (depth === 0) {
            values.push(pending + text.slice(start, i + 1));
            pending = '';
            start = i + 1;
          }
        }
      }
      if (depth > 0) {
        pending += text.slice(start);
        if (pending.length > maxValueChars) return fail(`request message larger than max (${pending.length} vs. ${maxValueChars})`, values);
      }
      return { ok: true, values };
    },
    end() {
      if (failure !== undefined) return { ok: false, message: failure };
      if (depth > 0 || pending !== '') return { ok: false, message: 'unexpected EOF' };
      return { ok: true };
    },
  };
}
