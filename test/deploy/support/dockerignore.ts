/**
 * `.dockerignore` matching as the Docker builder does it: one pattern per line, `#` comments,
 * paths relative to the context root, `*` and `?` within one path segment, `**` across segments,
 * a leading `!` re-includes, the last matching line wins, and a directory's exclusion covers
 * everything below it.
 */

export interface IgnoreRule {
  readonly negate: boolean;
  readonly re: RegExp;
  readonly pattern: string;
}

export function parseDockerignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    const pattern = (negate ? line.slice(1) : line).trim().replace(/^\/+/, '').replace(/\/+$/, '');
    rules.push({ negate, pattern, re: globToRegExp(pattern) });
  }
  return rules;
}

function globToRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*' && pattern[i + 1] === '*') {
      out += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A match on a directory excludes what is below it.
  return new RegExp(`^${out}(?:/.*)?$`);
}

/** Whether the context path (relative, `/`-separated) is excluded from the build context. */
export function isIgnored(path: string, rules: readonly IgnoreRule[]): boolean {
  const clean = path.replace(/^\.\//, '').replace(/\/+$/, '');
  let ignored = false;
  for (const r of rules) if (r.re.test(clean)) ignored = !r.negate;
  return ignored;
}
