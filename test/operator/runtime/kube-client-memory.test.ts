// The KubeClient conformance suite against the in-memory client.
import { MemoryKubeClient } from '../../../operator/runtime/kube/memory-client.js';
import { kubeClientConformance } from './kube-client-conformance.js';

let n = 0;
kubeClientConformance('memory', () => Promise.resolve({ client: new MemoryKubeClient(), namespace: `ns${++n}` }));
