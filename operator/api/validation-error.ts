/**
 * One reason a KvstoreCluster is not acceptable: the field as a dotted path (`spec.size`,
 * `spec.tolerations[0]`; `` for the document) and a message naming what is accepted.
 */
export interface ValidationError {
  readonly path: string;
  readonly message: string;
}

/** `/spec/tolerations/0` (a JSON pointer) → `spec.tolerations[0]`. */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc === '' ? seg : `${acc}.${seg}`), '');
}

/** `spec` + `size` → `spec.size`. */
export function joinPath(base: string, key: string): string {
  return base === '' ? key : key === '' ? base : `${base}.${key}`;
}
