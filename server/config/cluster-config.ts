/**
 * Listener, advertised and bootstrap URLs: the URL part of the configuration.
 *
 * Rules (etcd): when --listen-client-urls is given on the command line or in the environment,
 * --advertise-client-urls must be given too (not checked for a config file, where the default
 * stays). --initial-cluster defaults to `<name>=<url>` for each initial advertise peer URL.
 */
import type { InitialClusterMember } from './types.js';
import type { Values } from './values.js';

export type ClusterUrls =
  | {
      readonly ok: true;
      readonly listenPeerUrls: readonly URL[];
      readonly listenClientUrls: readonly URL[];
      readonly listenClientHttpUrls: readonly URL[];
      readonly listenMetricsUrls: readonly URL[];
      readonly advertiseClientUrls: readonly string[];
      readonly initialAdvertisePeerUrls: readonly string[];
      readonly initialCluster: readonly InitialClusterMember[];
    }
  | { readonly ok: false; readonly message: string };

export function resolveClusterUrls(values: Values, name: string, fromFile: boolean): ClusterUrls {
  if (!fromFile && values.isSet('listen-client-urls') && !values.isSet('advertise-client-urls')) {
    return { ok: false, message: '--advertise-client-urls is required when --listen-client-urls is set explicitly' };
  }
  const initialAdvertisePeerUrls = values.list('initial-advertise-peer-urls');
  let initialCluster = values.cluster('initial-cluster');
  if (!values.isSet('initial-cluster')) {
    initialCluster = [{ name, peerUrls: initialAdvertisePeerUrls }];
  } else if (initialCluster.length === 0) {
    return { ok: false, message: 'invalid value "" for flag --initial-cluster: at least one <name>=<peer-url> is required' };
  }
  return {
    ok: true,
    listenPeerUrls: toUrls(values.list('listen-peer-urls')),
    listenClientUrls: toUrls(values.list('listen-client-urls')),
    listenClientHttpUrls: toUrls(values.list('listen-client-http-urls')),
    listenMetricsUrls: toUrls(values.list('listen-metrics-urls')),
    advertiseClientUrls: values.list('advertise-client-urls'),
    initialAdvertisePeerUrls,
    initialCluster,
  };
}

function toUrls(texts: readonly string[]): readonly URL[] {
  return texts.map((t) => new URL(t));
}
