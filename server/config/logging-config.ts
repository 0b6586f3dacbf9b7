/**
 * The logging part of the configuration, folding in the deprecated flags:
 * --debug=true forces log level `debug`; --log-output (singular) is used when --log-outputs is
 * not given. Outputs: `default`/`stderr`, `stdout`, `systemd/journal` (not available: written to
 * stderr, with a warning) or file paths; `default` cannot be combined with other outputs.
 */
import type { VersionProfile } from '../version/profile.js';
import type { LogLevel, LoggerKind } from './types.js';
import type { Values } from './values.js';

export type LoggingConfig =
  | {
      readonly ok: true;
      readonly logger: LoggerKind;
      readonly logLevel: LogLevel;
      readonly logOutputs: readonly string[];
      readonly warnings: readonly string[];
    }
  | { readonly ok: false; readonly message: string };

export function resolveLogging(values: Values, profile: VersionProfile): LoggingConfig {
  const warnings: string[] = [];
  const logger = values.str('logger') as LoggerKind;
  if (logger === 'capnslog' && values.isSet('logger') && profile.capnslogDeprecated) {
    warnings.push(`--logger=capnslog is deprecated in ${profile.minor}; use --logger=zap (kvstore writes JSON lines either way)`);
  }
  const logLevel = (values.bool('debug') ? 'debug' : values.str('log-level')) as LogLevel;

  let outputs: readonly string[] = values.list('log-outputs');
  if (!values.isSet('log-outputs') && values.str('log-output') !== '') outputs = [values.str('log-output')];
  if (outputs.length === 0) outputs = ['default'];
  const mapped = outputs.map((o) => {
    if (o !== 'systemd/journal') return o;
    warnings.push('log output systemd/journal is not available in kvstore; logging to stderr');
    return 'stderr';
  });
  const logOutputs = [...new Set(mapped)];
  if (logOutputs.length > 1 && logOutputs.includes('default')) {
    return {
      ok: false,
      message: `invalid value ${JSON.stringify(outputs.join(','))} for flag --log-outputs: "default" cannot be combined with other outputs (use "stderr")`,
    };
  }
  return { ok: true, logger, logLevel, logOutputs, warnings };
}
