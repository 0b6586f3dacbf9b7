/**
 * Reading one flag value, from command-line/env text or from a YAML value, by the row's type.
 * Failures are reasons (the caller adds which flag, variable or key it was).
 *
 * YAML follows etcd's loader: strings for string/enum/URL/retention keys, booleans, integers
 * (durations as integer nanoseconds). Lists also accept a YAML sequence of strings.
 */
import type { VersionProfile } from '../version/profile.js';
import { parseGoDuration } from './duration.js';
import type { FlagValue, ValueType } from './flag-spec.js';
import { parseInitialCluster } from './initial-cluster.js';
import { parseUrlList } from './urls.js';

export type ValueResult = { readonly ok: true; readonly value: FlagValue } | { readonly ok: false; readonly reason: string };

const TRUE_WORDS = ['1', 't', 'T', 'true', 'TRUE', 'True'];
const FALSE_WORDS = ['0', 'f', 'F', 'false', 'FALSE', 'False'];

const ok = (value: FlagValue): ValueResult => ({ ok: true, value });
const fail = (reason: string): ValueResult => ({ ok: false, reason });

/** Reads flag text (as after `--flag=` or from an environment variable). */
export function parseText(type: ValueType, text: string): ValueResult {
  switch (type.kind) {
    case 'string':
    case 'retention':
      return ok(text);
    case 'bool':
      if (TRUE_WORDS.includes(text)) return ok(true);
      if (FALSE_WORDS.includes(text)) return ok(false);
      return fail('must be true or false');
    case 'uint': {
      const max = type.max ?? Number.MAX_SAFE_INTEGER;
      const n = /^[0-9]+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(n) || n > max) return fail(`must be an integer from 0 to ${max}`);
      return ok(n);
    }
    case 'int': {
      const n = /^[-+]?[0-9]+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(n)) return fail('must be an integer');
      return ok(n);
    }
    case 'duration': {
      const d = parseGoDuration(text);
      return d.ok ? ok(d.ms) : fail(`${d.reason}; must be a duration such as 500ms, 5s or 1h30m`);
    }
    case 'enum':
      return type.values.includes(text) ? ok(text) : fail(`must be one of ${type.values.join(', ')}`);
    case 'urls': {
      const r = parseUrlList(text, { bind: type.bind });
      if (!r.ok) return fail(r.reason);
      if (type.required && r.urls.length === 0) return fail('at least one URL is required');
      return ok(r.urls);
    }
    case 'list':
      return ok(uniqueList(text.split(',')));
    case 'cluster': {
      const r = parseInitialCluster(text);
      return r.ok ? ok(r.members) : fail(r.reason);
    }
  }
}

/** Reads a value found in the YAML file. */
export function parseYaml(type: ValueType, value: unknown, profile: VersionProfile): ValueResult {
  switch (type.kind) {
    case 'bool':
      return typeof value === 'boolean' ? ok(value) : fail('must be a boolean (true or false)');
    case 'uint':
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? parseText(type, String(value)) : fail('must be an integer');
    case 'duration':
      if (typeof value !== 'number' || !Number.isInteger(value)) return fail('must be an integer number of nanoseconds');
      return ok(value / 1e6);
    case 'list':
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return ok(uniqueList(value as string[]));
      return typeof value === 'string' ? parseText(type, value) : fail('must be a comma-separated string or a list of strings');
    case 'retention':
      if (profile.yamlCompactionRetention === 'integer') {
        return typeof value === 'number' && Number.isInteger(value) ? ok(String(value)) : fail(`must be an integer number of hours in ${profile.minor}`);
      }
      return typeof value === 'string'
        ? ok(value)
        : fail(`must be a string since 3.3: quote a number of hours ("1") or give a duration ("30m")`);
    case 'string':
    case 'enum':
    case 'urls':
    case 'cluster':
      return typeof value === 'string' ? parseText(type, value) : fail('must be a string');
  }
}

function uniqueList(items: readonly string[]): readonly string[] {
  return [...new Set(items.map((s) => s.trim()).filter((s) => s !== ''))];
}
