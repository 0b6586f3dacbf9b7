/**
 * The per-version profile: every behaviour that differs between the 3.2, 3.3, 3.4 and 3.5
 * lines is a field here, and code asks the profile instead of comparing versions.
 *
 * This table currently holds the configuration-related differences (flag defaults and how
 * strictly inputs are read); other areas add their fields here. Sources: SPEC.md
 * "Breaking changes" tables and ETCD-FACTS.md §9.
 */
import { apiVersionOf } from './version.js';
import type { MinorVersion } from './minor.js';

export interface VersionProfile {
  readonly minor: MinorVersion;
  /** Default of `--logger` (SPEC: zap is the default from 3.4 on). */
  readonly defaultLogger: 'zap' | 'capnslog';
  /** `--logger=capnslog` is accepted but reported as deprecated. */
  readonly capnslogDeprecated: boolean;
  /** Default of `--pre-vote` (true from 3.5). */
  readonly defaultPreVote: boolean;
  /** Default of `--enable-v2` (true in 3.2/3.3, false from 3.4). */
  readonly defaultEnableV2: boolean;
  /** `--enable-v2` is reported as deprecated when set. */
  readonly enableV2Deprecated: boolean;
  /**
   * YAML type of `auto-compaction-retention`: an integer (hours) up to 3.2, a string
   * (quoted number or duration) from 3.3 on.
   */
  readonly yamlCompactionRetention: 'integer' | 'string';
  /** A periodic retention may be a duration string such as `30m` (3.3+); before, whole hours only. */
  readonly compactionRetentionDurations: boolean;
  /** An environment variable that a command-line flag shadows: a warning up to 3.3, fatal from 3.4. */
  readonly envShadowedByFlag: 'warn' | 'error';
}

const PROFILES: Readonly<Record<MinorVersion, VersionProfile>> = {
  '3.2': {
    minor: '3.2',
    defaultLogger: 'capnslog',
    capnslogDeprecated: false,
    defaultPreVote: false,
    defaultEnableV2: true,
    enableV2Deprecated: false,
    yamlCompactionRetention: 'integer',
    compactionRetentionDurations: false,
    envShadowedByFlag: 'warn',
  },
  '3.3': {
    minor: '3.3',
    defaultLogger: 'capnslog',
    capnslogDeprecated: false,
    defaultPreVote: false,
    defaultEnableV2: true,
    enableV2Deprecated: false,
    yamlCompactionRetention: 'string',
    compactionRetentionDurations: true,
    envShadowedByFlag: 'warn',
  },
  '3.4': {
    minor: '3.4',
    defaultLogger: 'zap',
    capnslogDeprecated: false,
    defaultPreVote: false,
    defaultEnableV2: false,
    enableV2Deprecated: false,
    yamlCompactionRetention: 'string',
    compactionRetentionDurations: true,
    envShadowedByFlag: 'error',
  },
  '3.5': {
    minor: '3.5',
    defaultLogger: 'zap',
    capnslogDeprecated: true,
    defaultPreVote: true,
    defaultEnableV2: false,
    enableV2Deprecated: true,
    yamlCompactionRetention: 'string',
    compactionRetentionDurations: true,
    envShadowedByFlag: 'error',
  },
};

/** The profile of a minor line. */
export function profileOf(minor: MinorVersion): VersionProfile {
  return PROFILES[minor];
}

/** The profile of a validated server version such as `3.4.27`. */
export function profileFor(serverVersion: string): VersionProfile {
  return PROFILES[apiVersionOf(serverVersion)];
}
