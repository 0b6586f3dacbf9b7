// The KubeClient conformance suite against the client-node implementation talking to the
// in-process test API server (real REST: resourceVersion, 404/409 Status objects, /status).
import { after, before } from 'node:test';
import { ClientNodeKubeClient } from '../../../operator/runtime/kube/client-node-client.js';
import { kubeClientConformance } from './kube-client-conformance.js';
import { startFixture, type KubeApiFixture } from './kube-api-fixture.js';

let fx: KubeApiFixture;
let client: ClientNodeKubeClient;
before(async () => {
  fx = await startFixture();
  client = new ClientNodeKubeClient(fx.kubeConfig);
});
after(async () => {
  await fx.api.close();
});

kubeClientConformance('client-node', () => Promise.resolve({ client, namespace: fx.namespace() }));
