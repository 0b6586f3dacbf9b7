/**
 * Store paths with Go's `path` package semantics, restricted to absolute paths.
 *
 * `cleanPath(p)` = Go's `path.Clean(path.Join("/", p))`: always starts with `/`, no empty,
 * `.` or `..` segments (`..` at the root stays at the root), no trailing slash except `/`.
 */

export function cleanPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return '/' + out.join('/');
}

/** Go's `path.Split`: everything up to and including the last `/`, and the rest. */
export function splitPath(p: string): { readonly dir: string; readonly name: string } {
  const i = p.lastIndexOf('/');
  return { dir: p.slice(0, i + 1), name: p.slice(i + 1) };
}

/** Go's `path.Join(parent, name)` for a clean absolute parent and a plain name. */
export function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

/** The non-empty segments of a path, e.g. `/1/a/b/` → ['1', 'a', 'b']. */
export function segments(p: string): string[] {
  return p.split('/').filter((s) => s !== '');
}

/**
 * Orders keys like Go's string comparison (UTF-8 byte order = code point order), which
 * differs from JavaScript's UTF-16 order only for characters outside the BMP.
 */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
