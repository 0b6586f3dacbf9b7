/**
 * Go's texts for failed file operations (`*os.PathError`: `<op> <path>: <reason>`), which
 * etcdctl prints after `Error: `.
 */
const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EEXIST: 'file exists',
  EXDEV: 'invalid cross-device link',
};

export function goPathError(op: string, path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return `${op} ${path}: ${ERRNO_TEXT[code] ?? (err as Error).message}`;
}
