/**
 * The in-process Kubernetes API test server: node:http on 127.0.0.1 and a random port, serving
 * discovery, the resource verbs, pod eviction and watches over one object store, with the CRD
 * controller, the garbage collector and the disruption (PDB status) controller always on, the StatefulSet controller on unless disabled, and a kubelet
 * when a pod runner is given (README.md lists what is and is not implemented); an `audit` hook
 * hears of every resource request.
 *
 * Lifecycle: `startKubeApi()` resolves once listening; `close()` ends every watch stream, stops
 * the controllers and the kubelet (which stops every pod process it started) and the listener.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { auditRecord, type AuditRecord } from './audit.js';
import { runCrdController } from './crd-controller.js';
import { coreVersions, groupList, groupOf, resourceList, versionInfo } from './discovery.js';
import { runDisruptionController } from './disruption-controller.js';
import { evict } from './eviction.js';
import { runGarbageCollector } from './garbage-collector.js';
import { handleResource } from './handlers.js';
import { runKubelet, type PodRunner } from './kubelet.js';
import { ObjectStore } from './object-store.js';
import { ResourceRegistry } from './resources.js';
import { parseRoute } from './routes.js';
import { selectorsOf } from './selectors.js';
import { runStatefulSetController } from './statefulset-controller.js';
import { badRequest, methodNotAllowed, noRoute, type ApiError } from './status.js';
import type { Json, KubeObject } from './types.js';
import { serveWatch } from './watch-stream.js';

/** Options of `startKubeApi`. */
export interface KubeApiOptions {
  /** Events kept for watches to resume from (older → 410). Default 5000. */
  readonly historyLimit?: number;
  /** Prune, default and validate custom resources by their CRD's schema (default true). */
  readonly validateCustomResources?: boolean;
  /** Run the StatefulSet controller (default true). */
  readonly statefulSets?: boolean;
  /** A kubelet that starts pods through this port (none: pods stay Pending and delete at once). */
  readonly podRunner?: PodRunner;
  /** How often the kubelet probes readiness (default 500 ms). */
  readonly probeIntervalMs?: number;
  /** Interval of BOOKMARK events on watches that allow them (default 1000 ms). */
  readonly bookmarkMs?: number;
  /** Told of every resource request as it arrives (audit.ts), e.g. to count a client's writes. */
  readonly audit?: (record: AuditRecord) => void;
}

/** A running test API server. */
export interface KubeApi {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly store: ObjectStore;
  /** A client-node KubeConfig pointing at this server (namespace `default`). */
  kubeConfig(namespace?: string): KubeConfig;
  /** Writes that KubeConfig as a file (JSON, which kubeconfig loaders read as YAML) for a separate process; answers its path. */
  writeKubeConfig(path: string, namespace?: string): string;
  /**
   * Ends every open watch stream now (as an API server restart would); clients reconnect from
   * the last resourceVersion they saw. Writes made through `store` in the same tick, followed
   * by `store.compactHistory()`, are then missed by those watches and answered with 410.
   */
  endWatches(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, code: number, body: Json): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function replyError(res: ServerResponse, e: ApiError): void {
  reply(res, e.code, e.body);
}

/**
 * `GET pods/<name>/log?container=&tailLines=`: the pod runner's output of that container as
 * text/plain (the container defaults to the pod's only one; 400 when it has several).
 */
function replyLog(res: ServerResponse, pod: KubeObject | undefined, runner: PodRunner | undefined, q: URLSearchParams): void {
  if (pod === undefined) return replyError(res, { code: 404, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods not found', reason: 'NotFound', code: 404 } });
  const spec = (pod.spec ?? {}) as { containers?: { name: string }[] };
  const container = q.get('container') ?? (spec.containers?.length === 1 ? spec.containers[0]?.name : undefined);
  if (container === undefined) return replyError(res, badRequest('a container name must be specified'));
  const text = runner?.containerLog?.(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '', container);
  if (text === undefined) return replyError(res, badRequest(`container "${container}" in pod "${pod.metadata.name ?? ''}" is waiting to start`));
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const tail = q.get('tailLines');
  const body = `${(tail === null ? lines : lines.slice(-Math.max(0, Number(tail)))).join('\n')}${lines.length > 0 ? '\n' : ''}`;
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Starts the server (see the file header). */
export async function startKubeApi(opts: KubeApiOptions = {}): Promise<KubeApi> {
  const registry = new ResourceRegistry();
  const kubeletOn = opts.podRunner !== undefined;
  const store = new ObjectStore(registry, {
    historyLimit: opts.historyLimit ?? 5000,
    validateCustomResources: opts.validateCustomResources ?? true,
    gracefulDelete: (t, o) => kubeletOn && t.group === '' && t.plural === 'pods' && o.spec !== undefined,
  });
  const watches = new Set<() => void>();
  const stops: (() => void | Promise<void>)[] = [runCrdController(store), runGarbageCollector(store), runDisruptionController(store)];
  if (opts.statefulSets !== false) stops.push(runStatefulSetController(store));
  if (opts.podRunner !== undefined) stops.push(runKubelet(store, opts.podRunner, { probeIntervalMs: opts.probeIntervalMs ?? 500 }));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    const route = parseRoute(url.pathname);
    const docs: Record<string, () => Json | undefined> = {
      root: () => ({ paths: ['/api', '/api/v1', '/apis', '/version'] }),
      version: versionInfo,
      'core-versions': coreVersions,
      groups: () => groupList(registry),
      group: () => (route.kind === 'group' ? groupOf(registry, route.group) : undefined),
      resources: () => (route.kind === 'resources' ? resourceList(registry, route.group, route.version) : undefined),
    };
    const doc = docs[route.kind];
    if (doc !== undefined) {
      if (method !== 'GET') return replyError(res, methodNotAllowed());
      const d = doc();
      return d === undefined ? replyError(res, noRoute()) : reply(res, 200, d);
    }
    if (route.kind !== 'resource') return replyError(res, noRoute());
    const isWatch = method === 'GET' && (route.watchPath || url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1');
    const record = opts.audit === undefined ? undefined : auditRecord(method, route, isWatch);
    if (record !== undefined) opts.audit?.(record);
    const type = registry.lookup(route.group, route.version, route.plural);
    const badScope = type !== undefined && !type.namespaced && route.namespace !== undefined;
    const eviction = route.subresource === 'eviction' && type?.group === '' && type.plural === 'pods';
    const log = route.subresource === 'log' && type?.group === '' && type.plural === 'pods';
    const badSub = route.subresource !== undefined && !eviction && !log && (route.subresource !== 'status' || type?.hasStatus !== true);
    if (type === undefined || badScope || badSub) return replyError(res, noRoute());
    if (log) {
      if (method !== 'GET' || route.name === undefined || route.namespace === undefined) return replyError(res, methodNotAllowed());
      return replyLog(res, store.get(type, route.namespace, route.name), opts.podRunner, url.searchParams);
    }
    if (eviction) {
      if (method !== 'POST' || route.name === undefined) return replyError(res, methodNotAllowed());
      const r = evict(store, route.namespace, route.name);
      return reply(res, r.code, r.body);
    }
    if (isWatch) {
      const match = selectorsOf(url.searchParams);
      if ('error' in match) return replyError(res, badRequest(match.error));
      const byName = route.name === undefined ? match : (o: Parameters<typeof match>[0]) => o.metadata.name === route.name && match(o);
      const timeout = url.searchParams.get('timeoutSeconds');
      const end = serveWatch(store, {
        selection: { type, namespace: route.namespace, match: byName },
        version: route.version,
        resourceVersion: url.searchParams.get('resourceVersion'),
        timeoutSeconds: timeout === null ? undefined : Number(timeout),
        bookmarks: url.searchParams.get('allowWatchBookmarks') === 'true',
        bookmarkMs: opts.bookmarkMs ?? 1000,
      }, res);
      watches.add(end);
      res.on('close', () => watches.delete(end));
      return;
    }
    const r = handleResource(store, {
      method, type, version: route.version, namespace: route.namespace, name: route.name,
      mode: route.subresource === 'status' ? 'status' : 'main', query: url.searchParams,
      contentType: req.headers['content-type'] ?? 'application/json', body,
    });
    reply(res, r.code, r.body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) reply(res, 500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: String(err), reason: 'InternalError', code: 500 });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  const kubeConfig = (namespace = 'default'): KubeConfig => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'test', server: url, skipTLSVerify: true }],
      users: [{ name: 'test' }],
      contexts: [{ name: 'test', cluster: 'test', user: 'test', namespace }],
      currentContext: 'test',
    });
    return kc;
  };

  return {
    url,
    port,
    store,
    kubeConfig,
    writeKubeConfig(path: string, namespace = 'default'): string {
      writeFileSync(path, kubeConfig(namespace).exportConfig());
      return path;
    },
    endWatches(): void {
      for (const end of [...watches]) end();
    },
    async close(): Promise<void> {
      for (const end of [...watches]) end();
      for (const stop of stops.reverse()) await stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
