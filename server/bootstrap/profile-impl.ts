/** Maps the version profile's interface rows to the implementations that serve them. */
import { healthBody34, healthBody35, type HealthBody } from '../api/http/health-route.js';
import { MEMBER_METRIC_NAMES, MEMBER_METRIC_NAMES_35, type MemberMetricNames } from '../metrics/metric-names.js';
import type { VersionProfile } from '../version/profile.js';

const healthSpaced: HealthBody = (healthy) => `{"health": "${healthy ? 'true' : 'false'}"}`;

export function healthBodyFor(profile: VersionProfile): HealthBody {
  switch (profile.healthBody) {
    case 'spaced':
      return healthSpaced;
    case 'plain':
      return healthBody34;
    case 'reason':
      return healthBody35;
  }
}

export function metricNamesFor(profile: VersionProfile): MemberMetricNames {
  return profile.metricNames === 'promoted' ? MEMBER_METRIC_NAMES_35 : MEMBER_METRIC_NAMES;
}
