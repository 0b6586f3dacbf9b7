/** Maps the version profile's interface rows to the implementations that serve them. */
import { healthBody34, healthBody35, type HealthBody } from '../api/http/health-route.js';
import { MEMBER_METRIC_NAMES, MEMBER_METRIC_NAMES_35, type MemberMetricNames } from '../metrics/metric-names.js';
import { MINOR_VERSIONS } from '../version/minor.js';
import { profileOf, type VersionProfile } from '../version/profile.js';

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

/**
 * Metric names while the cluster runs `clusterVersion` (`3.4.0`): the names of that line, so a
 * newer binary in a mixed cluster keeps the older line's names until the cluster version moves
 * (versions below 3.2, such as the initial 3.0, show the oldest line's names).
 */
export function metricNamesForCluster(clusterVersion: string): MemberMetricNames {
  const minor = MINOR_VERSIONS.find((m) => clusterVersion === m || clusterVersion.startsWith(`${m}.`));
  return metricNamesFor(profileOf(minor ?? MINOR_VERSIONS[0]));
}
