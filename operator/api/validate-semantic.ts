/**
 * Checks a JSON schema cannot express, on a spec that passed the structural checks: names that
 * must fit the Kubernetes objects derived from them, options a version line cannot take,
 * option combinations, non-zero storage. Pure.
 */
import type { KvstoreClusterSpec } from './types.js';
import type { ValidationError } from './validation-error.js';
import { backupErrors } from './validate-backup.js';
import { restoreErrors } from './validate-restore.js';

/** How the cluster is run: Kubernetes objects, or local processes (`kvstore-operator local`). */
export type Target = 'kubernetes' | 'local';

/**
 * Longest cluster name: StatefulSet pods get a `controller-revision-hash` label
 * `<name>-<10 chars>`, and label values are at most 63 characters.
 */
export const MAX_NAME_LENGTH = 52;
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Minor line of `3.<minor>.<patch>` as a number (`3.4.2` → 4). */
export function minorOf(version: string): number {
  return Number(version.split('.')[1]);
}

/** Options and the first minor line that accepts them as flags. */
const OPTION_SINCE = [
  ['autoCompactionMode', 3, '--auto-compaction-mode'],
  ['maxRequestBytes', 3, '--max-request-bytes'],
  ['enableV2', 3, '--enable-v2 (3.2 always serves v2)'],
] as const;

export function nameErrors(name: string): ValidationError[] {
  if (!DNS_1035_LABEL.test(name)) {
    return [{ path: 'metadata.name', message: 'must be lower-case letters, digits and "-", starting with a letter and ending with a letter or digit (it names Services and Pods)' }];
  }
  if (name.length > MAX_NAME_LENGTH) {
    return [{ path: 'metadata.name', message: `must be at most ${MAX_NAME_LENGTH} characters (pod labels carry <name>-<revision hash>)` }];
  }
  return [];
}

export function specErrors(spec: KvstoreClusterSpec, target: Target): ValidationError[] {
  const out: ValidationError[] = [];
  const minor = minorOf(spec.version);
  const o = spec.options;
  for (const [key, since, flag] of OPTION_SINCE) {
    if (o[key] !== undefined && minor < since) {
      out.push({ path: `spec.options.${key}`, message: `${flag} needs version 3.${since} or later (spec.version is ${spec.version})` });
    }
  }
  if ((o.logLevel === 'warn' || o.logLevel === 'error') && minor < 4) {
    out.push({ path: 'spec.options.logLevel', message: `must be debug or info before 3.4 (--log-level came in 3.4; spec.version is ${spec.version})` });
  }
  if (o.autoCompactionMode === 'revision' && o.autoCompactionRetention !== undefined && !/^[0-9]+$/.test(o.autoCompactionRetention)) {
    out.push({ path: 'spec.options.autoCompactionRetention', message: 'must be a number of revisions (an integer) when autoCompactionMode is revision' });
  }
  if (minor < 3 && o.autoCompactionRetention !== undefined && !/^[0-9]+$/.test(o.autoCompactionRetention)) {
    out.push({ path: 'spec.options.autoCompactionRetention', message: 'must be a number of hours (an integer) before 3.3' });
  }
  const lastSegment = spec.image.split('/').pop() ?? '';
  if (lastSegment.includes(':') || lastSegment.includes('@') || /\s/.test(spec.image)) {
    out.push({ path: 'spec.image', message: `must be an image repository without tag or digest (the tag is the version), e.g. ${spec.image.replace(/(@.*|:[^/]*)$/, '')}` });
  }
  if (/^0*(\.0*)?([KMGTPE]i|[numkMGTPE])?$/.test(spec.storage.size)) {
    out.push({ path: 'spec.storage.size', message: 'must be more than zero' });
  }
  out.push(...securityErrors(spec, target));
  out.push(...backupErrors(spec, target));
  out.push(...restoreErrors(spec, target));
  if (target === 'kubernetes' && !(DNS_1123_SUBDOMAIN.test(spec.upgrade.snapshot.volume) && spec.upgrade.snapshot.volume.length <= 253)) {
    out.push({ path: 'spec.upgrade.snapshot.volume', message: 'must be a PersistentVolumeClaim name (lower-case letters, digits, "-" and ".")' });
  }
  return out;
}

/** spec.tls / spec.auth: Secrets named where Kubernetes needs them, none where local mode makes its own. */
export function securityErrors(spec: KvstoreClusterSpec, target: Target): ValidationError[] {
  const out: ValidationError[] = [];
  const tls = spec.tls;
  if (tls?.operator !== undefined && tls.client === undefined) {
    out.push({ path: 'spec.tls.operator', message: 'is only used with spec.tls.client (the operator presents it to TLS client listeners)' });
  }
  for (const key of ['client', 'peer', 'operator'] as const) {
    const part = tls?.[key];
    const name = part?.secretName;
    if (target === 'kubernetes') {
      if (part !== undefined && name === undefined) out.push({ path: `spec.tls.${key}.secretName`, message: 'is required (a Secret with tls.crt, tls.key and ca.crt)' });
      if (name !== undefined && !DNS_1123_SUBDOMAIN.test(name)) out.push({ path: `spec.tls.${key}.secretName`, message: 'must be a Secret name (lower-case letters, digits, "-" and ".")' });
    } else if (name !== undefined) {
      out.push({ path: `spec.tls.${key}.secretName`, message: 'is for Kubernetes: local mode generates the CA and certificates in its state directory' });
    }
  }
  if (target === 'kubernetes' && tls?.client !== undefined && tls.operator === undefined) {
    out.push({ path: 'spec.tls.operator.secretName', message: "is required with spec.tls.client: the members ask for a client certificate (the operator's, signed by the client CA)" });
  }
  const auth = spec.auth?.secretName;
  if (target === 'kubernetes' && auth !== undefined && !DNS_1123_SUBDOMAIN.test(auth)) {
    out.push({ path: 'spec.auth.secretName', message: 'must be a Secret name (lower-case letters, digits, "-" and ".")' });
  }
  return out;
}
