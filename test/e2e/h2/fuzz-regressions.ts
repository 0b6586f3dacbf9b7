/**
 * Fuzz seeds that once killed a member (or stopped it answering), run first in every mode by
 * fuzz.test.ts. Add a seed here when the fuzzer reports one; keep it after the fix.
 */
export const REGRESSION_SEEDS: readonly number[] = [
  72, // preface, HEADERS on "/" then RST_STREAM(0xff) at once: grpc-js respond() on a destroyed stream throws ERR_HTTP2_INVALID_STREAM, uncaught, the member exits (default mode, when streams our framing did not serve were relayed to grpc-js)
];
