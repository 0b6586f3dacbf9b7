/**
 * Checks of `spec.backup` the schema cannot express: the schedule parses (cron.ts) and fires,
 * one destination, a path that stays inside the operator's backup volume on Kubernetes, an
 * endpoint that is a URL, a Secret name. Pure.
 */
import { parseCron } from './cron.js';
import type { KvstoreClusterSpec } from './types.js';
import type { Target } from './validate-semantic.js';
import type { ValidationError } from './validation-error.js';

const DNS_1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function backupErrors(spec: KvstoreClusterSpec, target: Target): ValidationError[] {
  const b = spec.backup;
  if (b === undefined) return [];
  const out: ValidationError[] = [];
  const cron = parseCron(b.schedule);
  if (!cron.ok) out.push({ path: 'spec.backup.schedule', message: cron.error });
  const { path, s3 } = b.destination;
  if (path !== undefined && s3 !== undefined) out.push({ path: 'spec.backup.destination', message: 'must name either path or s3, not both' });
  if (path !== undefined && target === 'kubernetes' && (path.startsWith('/') || path.split('/').includes('..'))) {
    out.push({ path: 'spec.backup.destination.path', message: "must be a relative path without '..' (a folder inside the operator's backup volume)" });
  }
  if (s3 !== undefined) {
    if (s3.endpoint !== undefined && !/^https?:\/\/[^\s/]+/.test(s3.endpoint)) out.push({ path: 'spec.backup.destination.s3.endpoint', message: 'must be an http(s) URL' });
    if (s3.prefix?.startsWith('/') === true) out.push({ path: 'spec.backup.destination.s3.prefix', message: "must not start with '/'" });
    if (s3.credentialsSecret !== undefined && !DNS_1123_SUBDOMAIN.test(s3.credentialsSecret)) {
      out.push({ path: 'spec.backup.destination.s3.credentialsSecret', message: 'must be a Secret name (lower-case letters, digits, "-" and ".")' });
    }
  }
  return out;
}
