/** An error as one text: message, causes, and the top of its stack. */
export function describeError(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause === undefined ? '' : ` (cause: ${describeError(e.cause)})`;
  return `${e.message}${cause}${e.stack ? `\n${e.stack.split('\n').slice(1, 6).join('\n')}` : ''}`;
}
