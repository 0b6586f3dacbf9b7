/**
 * What setting a flag means for this build and version line, per the row's metadata:
 * deprecated and no-effect flags warn, flags newer than
 * the presented version warn, unsupported modes fail. Pure: looks only at the given values.
 */
import { minorAtLeast } from '../version/minor.js';
import type { VersionProfile } from '../version/profile.js';
import { defaultText } from './flag-spec.js';
import { flag } from './flag-table.js';
import { parseText } from './value-parse.js';
import type { Values } from './values.js';

export type SupportCheck = { readonly ok: true; readonly warnings: readonly string[] } | { readonly ok: false; readonly message: string };

export function checkSupport(values: Values, profile: VersionProfile): SupportCheck {
  const warnings: string[] = [];
  for (const name of values.setNames()) {
    const spec = flag(name);
    const current = valueOf(values, name);
    const isDefault = JSON.stringify(current) === JSON.stringify(defaultValue(name, profile));
    if (spec.since !== undefined && !minorAtLeast(profile.minor, spec.since)) {
      warnings.push(`flag --${name} was added in ${spec.since}; accepted although the server version line is ${profile.minor}`);
    }
    const deprecated = spec.deprecated !== undefined && minorAtLeast(profile.minor, spec.deprecated.since) ? spec.deprecated : undefined;
    if (deprecated !== undefined) {
      warnings.push(`flag --${name} is deprecated: ${deprecated.advice}${spec.support === 'ignored' ? ' (ignored)' : ''}`);
    } else if (spec.support === 'ignored') {
      warnings.push(`flag --${name} is accepted for compatibility but has no effect in kvstore`);
    }
    if (spec.support === 'unsupported' && !isDefault) {
      return { ok: false, message: `flag --${name} is not supported by kvstore (value ${JSON.stringify(current)})` };
    }
    if (name === 'enable-v2' && profile.enableV2Deprecated) {
      warnings.push(`flag --enable-v2 is deprecated in ${profile.minor}`);
    }
  }
  return { ok: true, warnings };
}

function valueOf(values: Values, name: string): unknown {
  switch (flag(name).type.kind) {
    case 'bool':
      return values.bool(name);
    case 'uint':
    case 'int':
    case 'duration':
      return values.num(name);
    case 'urls':
    case 'list':
      return values.list(name);
    case 'cluster':
      return values.cluster(name);
    default:
      return values.str(name);
  }
}

function defaultValue(name: string, profile: VersionProfile): unknown {
  const spec = flag(name);
  const parsed = parseText(spec.type, defaultText(spec, profile));
  return parsed.ok ? parsed.value : undefined;
}
