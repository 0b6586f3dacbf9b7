/**
 * One test API server (test/support/kube-api) per test file, serving the `Widget` custom
 * resource of the conformance suite, and a fresh namespace per test.
 */
import { ApiextensionsV1Api, type KubeConfig } from '@kubernetes/client-node';
import { startKubeApi, type KubeApi } from '../../support/kube-api/server.js';

const open = { type: 'object', x_kubernetes_preserve_unknown_fields: true };

/** The CRD of the test kind `Widget` (client-node model field names). */
export const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.test.kvstore.io' },
  spec: {
    group: 'test.kvstore.io',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', properties: { spec: open, status: open } } } }],
  },
};

export interface KubeApiFixture {
  readonly api: KubeApi;
  readonly kubeConfig: KubeConfig;
  /** A namespace name not used before in this file. */
  namespace(): string;
}

export async function startFixture(): Promise<KubeApiFixture> {
  const api = await startKubeApi();
  const kubeConfig = api.kubeConfig();
  const ext = kubeConfig.makeApiClient(ApiextensionsV1Api);
  await ext.createCustomResourceDefinition({ body: WIDGET_CRD });
  let n = 0;
  return { api, kubeConfig, namespace: () => `t${++n}` };
}
