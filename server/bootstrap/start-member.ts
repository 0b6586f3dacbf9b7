/**
 * The composition root of one member: opens (or creates) the data dir, recovers state,
 * wires the actor, the services and both protocols on the client URLs, and starts the
 * housekeeping timers. Returns a handle whose close() shuts everything down in order:
 * stop accepting clients → finish and flush in-flight proposals → close the log and store.
 *
 * Order at start (etcd's): the peer port and the metrics port serve at once (Raft needs the
 * first; the second shows no data, and its /health stays unhealthy until the member serves);
 * the client port is bound only after `published local member to cluster through raft`, when
 * the log is applied past everything this member applied before (serve-gate.ts,
 * client-port.ts); then `ready to serve client requests`. startMember resolves before that: a
 * member without a quorum keeps retrying its publish and can still be stopped cleanly.
 */
import { mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { AlarmSet } from '../apply/alarms.js';
import { Applier } from '../apply/applier.js';
import { noMethods } from '../api/grpc/h2-serving.js';
import { createGrpcEdge } from '../api/grpc/server.js';
import { createGrpcMetrics } from '../api/grpc/metrics.js';
import { toStatus } from '../api/grpc/error-table.js';
import { createClusterService } from '../api/service/cluster-service.js';
import type { ServiceContext } from '../api/service/context.js';
import { createKvService } from '../api/service/kv-service.js';
import { createLeaseService } from '../api/service/lease-service.js';
import { createMaintenanceService } from '../api/service/maintenance-service.js';
import { createMemberInfo } from '../api/service/member-info.js';
import type { MemberInfo, Services } from '../api/services.js';
import { Compactor } from '../compactor/compactor.js';
import { formatId, initialClusterId, initialMembers, memberIdFor, verifyBootstrap } from '../config/index.js';
import type { ServerConfig } from '../config/types.js';
import { createLeaseIdGenerator } from '../lease/id-generator.js';
import { createLessor } from '../lease/lessor.js';
import { minLeaseTtlSeconds } from '../lease/ttl.js';
import { Member } from '../member/member.js';
import { createMemberMetrics } from '../metrics/member-metrics.js';
import { openMvccStore } from '../mvcc/store.js';
import { takeIndexCheckpoint } from './index-checkpoint-file.js';
import { Bucket } from '../storage/backend.js';
import { openLevelBackend } from '../storage/level-backend.js';
import { prepareMemberTls } from '../tls/member-tls.js';
import { TlsLoadError } from '../tls/tls-source.js';
import { capableOf, profileFor, responseLimitBytes } from '../version/profile.js';
import { MINOR_VERSIONS, type MinorVersion } from '../version/minor.js';
import { ClusterVersionState } from '../clusterversion/cluster-version-state.js';
import { compareVersions, joinProblem } from '../clusterversion/versions.js';
import { startVersionMonitor } from '../clusterversion/monitor.js';
import { logVersionHistory } from '../clusterversion/history-log.js';
import { gateOnClusterVersion } from '../clusterversion/health-gate.js';
import { healthBodyFor, metricNamesFor, metricNamesForCluster } from './profile-impl.js';
import { createMetricsApp } from '../api/http/metrics-app.js';
import { listenMetrics } from '../transport/listen-metrics.js';
import { openWal, walExists } from '../wal/index.js';
import { WatchHub } from '../watch/watch-hub.js';
import { dataDirLayout, decodeWalMetadata, encodeWalMetadata, type DataDirLayout } from './data-dir.js';
import { importEtcdDataDir } from './etcd-import/index.js';
import { frontEndLocal } from './front-end-local.js';
import { startHousekeeping } from './housekeeping.js';
import { leasePort, restoreLeases } from './lease-port.js';
import { loadMembership } from './membership-store.js';
import type { MemberRecord } from '../membership/membership.js';
import { publishAttributes } from './publish.js';
import { gateOnServing, serveGate } from './serve-gate.js';
import { boundUrls, clientPortListen, clientPortWhenReady, frontEndThreads } from './client-port.js';
import { logRecovery, saveIndexCheckpoint } from './key-index-start.js';
import { startPeers, type Peers } from './peers.js';
import { handOffLeadership } from './leadership-handoff.js';
import { createLeaderForwarder, MEMBER_PROMOTE_PATH } from '../api/service/leader-forward.js';
import { encodeMessage } from '../member/message-codec.js';
import { realScheduler } from '../member/scheduler.js';
import { MessageType } from '../raft/index.js';
import { snapshotExchange } from './snapshot-exchange.js';
import { finishInterruptedInstall, removeStaleImages } from './finish-install.js';
import { removeSnapshotTemps } from '../snapshot/stream.js';
import { existsSync } from 'node:fs';
import { bootstrapEntries } from './bootstrap-entries.js';
import { loadV2Store, startV2Upkeep, v2AuthAccess, v2Port } from './v2.js';
import { clientHttp } from './client-http.js';
import { StreamSlots } from '../api/http/stream-slots.js';
import { clusterVersionOfPeers, discoverIdentity, isMemberBootstrapped } from './join.js';
import { authGate, openAuth } from './auth.js';
import { createAuthService } from '../api/service/auth-service.js';

export interface RunningMember {
  readonly memberId: bigint;
  readonly clusterId: bigint;
  close(): Promise<void>;
}

const GRPC_OVERHEAD_BYTES = 512 * 1024;

/** A configuration that cannot start a member (reported without a stack trace). */
export class ConfigProblem extends Error {}

/** `/health` unhealthy until the member serves clients (serve-gate.ts) and the cluster version is decided (health-gate.ts). */
function gatedMemberInfo(info: MemberInfo, serving: () => boolean, clusterVersion: () => string | undefined): MemberInfo {
  return { ...info, health: async () => gateOnClusterVersion(gateOnServing(await info.health(), serving()), clusterVersion()) };
}

function initialIds(config: ServerConfig): { memberId: bigint; clusterId: bigint } {
  return { memberId: memberIdFor(config.initialAdvertisePeerUrls, config.initialClusterToken), clusterId: initialClusterId(config) };
}

/** An etcd 3.4 data dir is converted once, before anything else reads it (etcd-import/). */
async function importEtcdData(layout: DataDirLayout, logger: Logger): Promise<void> {
  const imported = await importEtcdDataDir(layout);
  if (imported.kind === 'Refused') throw new ConfigProblem(`cannot start on the etcd data dir: ${imported.reason}`);
  if (imported.kind !== 'Imported') return;
  const { plan } = imported;
  logger.info(
    {
      'local-member-id': formatId(plan.memberId),
      'cluster-id': formatId(plan.clusterId),
      members: plan.members.map((m) => formatId(m.id)),
      index: plan.marker.index,
      term: plan.marker.term,
      entries: imported.copied,
      'skipped-buckets': imported.skippedBuckets,
    },
    'imported etcd data dir (originals kept as member/snap/db.etcd and the WAL directory + .etcd)',
  );
}

export async function startMember(config: ServerConfig, logger: Logger): Promise<RunningMember> {
  const now = (): number => Date.now();
  const layout = dataDirLayout(config);
  const profile = profileFor(config.serverVersion);
  await mkdir(layout.snapDir, { recursive: true });
  await removeSnapshotTemps(layout.snapDir);

  const registry = new Registry();
  // The gateway's release line follows the cluster version; the handler is built further down.
  const http: { switchTo: (minor: string) => void } = { switchTo: () => undefined };
  /** A cluster version decided through the log or recovered from a snapshot: metrics, the HTTP profile, capabilities. */
  const adoptClusterVersion = (to: string): void => {
    metrics.setClusterVersion(to);
    metrics.exposeNames(metricNamesForCluster(to));
    if (compareVersions(to, profile.minor) > 0) {
      log.fatal({ 'current-server-version': config.serverVersion, 'determined-cluster-version': to }, 'invalid downgrade; server version is lower than determined cluster version');
      process.exitCode = 1;
      setImmediate(() => process.kill(process.pid, 'SIGTERM'));
      return;
    }
    http.switchTo(to);
    log.info({ 'cluster-version': to }, 'enabled capabilities for version');
  };
  const metrics = createMemberMetrics(registry, { serverVersion: config.serverVersion }, metricNamesFor(profile));

  await importEtcdData(layout, logger);
  if ((await walExists(layout.walDir)) && !existsSync(layout.backendPath)) {
    throw new ConfigProblem(
      `the data dir ${config.dataDir} holds a write-ahead log (v2 data) but no v3 database at ${layout.backendPath}: ` +
        'a member must not start on v2-only data (a cluster migrated from v2 writes v3 data before it is upgraded); restore the v3 database or a snapshot',
    );
  }
  const tls = await prepareMemberTls(config, logger).catch((e: unknown) => {
    throw e instanceof TlsLoadError ? new ConfigProblem(e.message) : e;
  });
  let fresh = initialIds(config);
  let joinedOthers: readonly MemberRecord[] | undefined;
  if (!(await walExists(layout.walDir))) {
    const problem = verifyBootstrap(config);
    if (problem !== undefined) throw new ConfigProblem(problem);
    if (config.initialClusterState === 'existing') {
      const joined = await discoverIdentity(config, 10_000, tls.peer?.dial);
      if (joined === undefined) {
        throw new ConfigProblem('could not retrieve cluster information from the given URLs (--initial-cluster): no member answered with this member in its list; add it with MemberAdd first');
      }
      const remote = await clusterVersionOfPeers(config, tls.peer?.dial);
      const problem = remote === undefined ? undefined : joinProblem(profile.minor, remote);
      if (problem !== undefined) throw new ConfigProblem(`incompatible with current running cluster: ${problem}`);
      fresh = joined;
      joinedOthers = joined.others;
    } else if (await isMemberBootstrapped(config, fresh.memberId, tls.peer?.dial)) {
      // As etcd: the data dir of a member that has served was lost; do not found it again.
      throw new Error(`member ${formatId(fresh.memberId)} has already been bootstrapped`);
    }
  }
  const opened = await openWal(layout.walDir, {
    metadata: encodeWalMetadata(fresh.memberId, fresh.clusterId),
    onFsync: (s) => metrics.walFsyncDuration.observe(s),
    onWriteBytes: (n) => metrics.walWriteBytes.inc(n),
    // The log's entries keep their payloads in the WAL's files, not in memory (member.ts, logWindowBytes).
    payloads: 'files',
  });
  const { memberId, clusterId } = decodeWalMetadata(opened.contents.metadata);
  const log = logger.child({ 'local-member-id': formatId(memberId) });
  if (opened.created) log.info({ 'cluster-id': formatId(clusterId), 'data-dir': config.dataDir }, 'starting a new member');
  else log.info({ 'cluster-id': formatId(clusterId), 'data-dir': config.dataDir }, 'restarting member from existing data dir');

  const backend = await openLevelBackend(layout.backendPath);
  const checkpoint = await takeIndexCheckpoint(layout.indexCheckpointPath);
  const recoveryStarted = performance.now();
  const store = await openMvccStore(backend, undefined, checkpoint);
  logRecovery(store, performance.now() - recoveryStarted, log);
  const marker = opened.contents.snapshot;
  const pending = marker && marker.index > store.consistentIndex ? marker.index : undefined;
  await removeStaleImages(layout.snapDir, pending);
  // A snapshot from the leader was recorded in the log but its image had not replaced the
  // backend when the member stopped: finish that install now.
  if (pending !== undefined) await finishInterruptedInstall({ snapDir: layout.snapDir, backend, store, logger }, pending);
  const clusterVersion = await ClusterVersionState.load(backend);
  if (clusterVersion.current !== undefined) {
    if (compareVersions(clusterVersion.current, profile.minor) > 0) {
      await backend.close();
      throw new ConfigProblem(
        `invalid downgrade; server version ${config.serverVersion} is lower than determined cluster version ${clusterVersion.current}.0 ` +
          `(data dir ${config.dataDir}). Once every member ran ${clusterVersion.current}, older binaries cannot start on its data; ` +
          `to go back, restore a snapshot taken before the upgrade (kvstorectl snapshot restore) into a new data dir.`,
      );
    }
    const tooFar = joinProblem(profile.minor, clusterVersion.current);
    if (tooFar !== undefined) {
      await backend.close();
      throw new ConfigProblem(`incompatible with current running cluster: ${tooFar}`);
    }
    log.info({ 'cluster-version': clusterVersion.current }, 'enabled capabilities for version');
    log.info({ 'cluster-version': clusterVersion.current }, 'set cluster version from store');
    logVersionHistory(opened.contents.entries, Number(store.consistentIndex), formatId(clusterId), log);
  }
  const lessor = createLessor({
    minTtlSeconds: minLeaseTtlSeconds(Math.max(1, Math.round(config.electionTimeoutMs / config.heartbeatIntervalMs)), config.heartbeatIntervalMs),
    checkpointIntervalMs: config.experimentalEnableLeaseCheckpoint ? config.leaseCheckpointIntervalMs : undefined,
  });
  const restored = await restoreLeases(lessor, backend, store);
  if (!restored.ok) throw new Error(`cannot restore leases: ${restored.error.kind}`);
  const alarmKeys: Buffer[] = [];
  for await (const [k] of backend.iterate(Bucket.Alarm)) alarmKeys.push(k);
  const alarms = AlarmSet.restore(alarmKeys);
  const membership = await loadMembership(backend, config, joinedOthers);
  const v2 = await loadV2Store(backend);
  const auth = await openAuth(backend, config, now);

  // The hub and applier are built before the member; their callbacks reach it only after startup.
  let checkVersions: () => void = () => undefined;
  const header = (revision: bigint) => member.header(revision);
  const hub = new WatchHub({
    history: (from, to, key, end) => store.history(from, to, key, end),
    readPrev: (events) => store.readPrev(events),
    currentRevision: () => store.currentRevision,
    compactRevision: () => store.compactRevision,
    header,
    maxEventBytes: config.maxRequestBytes + GRPC_OVERHEAD_BYTES,
  });
  const applier = new Applier({
    store,
    leases: leasePort(lessor),
    alarms,
    membership,
    clusterVersion,
    v2,
    auth: { ...auth.apply, leaseKeys: (id) => lessor.timeToLive(id, 0)?.keys ?? [] },
    onClusterVersion: (from, to) => {
      const ids = { 'cluster-id': formatId(clusterId) };
      if (from === undefined) log.info({ ...ids, 'cluster-version': to }, 'set initial cluster version');
      else log.info({ ...ids, from, to }, 'updated cluster version');
      adoptClusterVersion(to);
    },
    // The leader decides the cluster version as soon as a member has started (published) or the
    // membership changed, not at its next periodic check.
    onMembersChanged: () => {
      if (member.isLeader) checkVersions();
    },
    onEvents: (revision, events) => {
      metrics.events.inc(events.length);
      hub.notify(revision, events);
    },
    onCompacted: (revision) => hub.compacted(revision),
  });
  // Clients are served once the log is applied past the commit index the WAL recorded and this
  // member's publish went through (serve-gate.ts).
  const serving = serveGate(opened.contents.hardState.commit, () => member.appliedIndex);
  let fatal = false;
  const member: Member = new Member({
    memberId,
    clusterId,
    wal: opened.wal,
    store,
    applier,
    maxRequestBytes: config.maxRequestBytes,
    scheduler: realScheduler,
    snapshotCount: config.snapshotCount,
    catchUpEntries: Math.min(5000, config.snapshotCount),
    random: Math.random,
    tickMs: config.heartbeatIntervalMs,
    electionTicks: Math.max(2, Math.round(config.electionTimeoutMs / config.heartbeatIntervalMs)),
    preVote: config.preVote,
    requestTimeoutMs: 5000 + 2 * config.electionTimeoutMs,
    send: (m) => {
      if (m.type === MessageType.MsgSnap) void snapshots.send(m);
      else peers?.transport.send(m.to, encodeMessage(m));
    },
    flushSends: () => peers?.transport.flush(),
    hooks: {
      onLeaderChange: (lead, isLeader) => {
        metrics.hasLeader.set(lead === 0n ? 0 : 1);
        metrics.isLeader.set(isLeader ? 1 : 0);
        metrics.leaderChangesSeen.inc();
        if (isLeader) lessor.promote(now(), config.electionTimeoutMs);
        else lessor.demote();
        if (isLeader) setTimeout(() => checkVersions(), 50).unref();
        log.info({ leader: formatId(lead), 'is-leader': isLeader }, lead === 0n ? 'lost leader' : 'leader changed');
      },
      onApplied: (index) => {
        serving.applied();
        peers?.reconcile();
        metrics.proposalsCommitted.set(Number(index));
        metrics.proposalsApplied.set(Number(index));
        metrics.currentRevision.set(Number(store.currentRevision));
        metrics.compactRevision.set(Number(store.compactRevision));
        metrics.keys.set(store.keyCount);
        metrics.authRevision.set(auth.store.revision);
      },
      onProposalFailed: () => metrics.proposalsFailed.inc(),
      onFlushed: (seconds) => metrics.backendCommitDuration.observe(seconds),
      onSnapshot: (index) => log.info({ 'snapshot-index': index.toString() }, 'saved snapshot and released the log before it'),
      onFatal: (error) => {
        if (fatal) return;
        fatal = true;
        // The error's own message, e.g. raft's "tocommit(…) is out of range …" as etcd logs it.
        log.fatal({ err: error }, error.message);
        process.exitCode = 1;
        setImmediate(() => process.kill(process.pid, 'SIGTERM'));
      },
    },
  });
  const snapshots = snapshotExchange({
    member: () => member,
    transport: () => peers!.transport,
    backend,
    store,
    lessor,
    alarms,
    membership,
    clusterVersion,
    v2,
    auth: auth.store,
    snapDir: layout.snapDir,
    logger: log,
    onClusterVersionRecovered: adoptClusterVersion,
  });
  let removed = false;
  const peers: Peers | undefined = await startPeers({
    memberId,
    clusterId,
    listenUrls: config.listenPeerUrls.map((u) => u.href),
    advertiseUrls: config.initialAdvertisePeerUrls,
    serverVersion: config.serverVersion,
    version: () => ({ etcdserver: config.serverVersion, etcdcluster: clusterVersion.reported }),
    membership,
    member: () => member,
    leases: lessor,
    store,
    now,
    logger: log,
    registry,
    tls: tls.peer,
    onSnapshot: (from, meta, body) => snapshots.receive(from, meta, body),
    onRemoved: () => {
      if (removed) return;
      removed = true;
      log.warn('the member has been permanently removed from the cluster; stopping');
      setImmediate(() => process.kill(process.pid, 'SIGTERM'));
    },
  });
  const forwarder = createLeaderForwarder(() => {
    const lead = member.leaderId;
    return lead === 0n ? undefined : peers.peerUrl(lead);
  }, 5000);
  // A fresh member of a new cluster writes the founding entries; a fresh member joining an
  // existing cluster starts with no voters and learns the membership from the leader; a
  // restarting member takes it from its backend (as of its applied index).
  const founding = opened.created && config.initialClusterState === 'new';
  const joining = opened.created && config.initialClusterState === 'existing';
  await member.start(opened.contents, {
    voters: joining || founding ? [] : membership.voters().map((m) => m.id),
    learners: joining || founding ? [] : membership.learners().map((m) => m.id),
    bootstrapEntries: founding ? bootstrapEntries(initialMembers(config)) : [],
  });
  metrics.setServerId(formatId(memberId));
  if (clusterVersion.current !== undefined) {
    metrics.setClusterVersion(clusterVersion.current);
    metrics.exposeNames(metricNamesForCluster(clusterVersion.current));
  }
  metrics.quotaBackendBytes.set(config.effectiveQuotaBackendBytes);
  metrics.authRevision.set(auth.store.revision);

  const clientUrls = config.advertiseClientUrls;
  const ctx: ServiceContext = {
    member,
    store,
    backend,
    alarms,
    leases: lessor,
    serverVersion: config.serverVersion,
    maxTxnOps: config.maxTxnOps,
    quotaBytes: config.effectiveQuotaBackendBytes,
    dbSize: () => store.size.allocated,
    dbSizeInUse: () => store.size.inUse,
    now,
    newLeaseId: createLeaseIdGenerator(memberId, now()),
    membership,
    leader: forwarder,
    clusterToken: config.initialClusterToken,
    strictReconfigCheck: config.strictReconfigCheck,
    peerActiveSince: (id) => peers.transport.activeSince(id),
    snapDir: layout.snapDir,
    log,
    counters: {
      onRange: () => metrics.range.inc(),
      onPut: () => metrics.put.inc(),
      onDelete: () => metrics.delete.inc(),
      onTxn: () => metrics.txn.inc(),
    },
  };
  const services: Services = {
    kv: createKvService(ctx),
    watch: hub,
    lease: createLeaseService(ctx),
    cluster: createClusterService(ctx),
    maintenance: createMaintenanceService(ctx),
    auth: createAuthService(ctx, auth),
    info: gatedMemberInfo(createMemberInfo(ctx, () => clusterVersion.reported), () => serving.isOpen, () => clusterVersion.current),
  };

  peers.transport.route({
    method: 'POST',
    path: MEMBER_PROMOTE_PATH,
    prefix: true,
    handle: async (req, res) => {
      const id = BigInt(/^\d+$/.test(req.url?.slice(MEMBER_PROMOTE_PATH.length) ?? '') ? req.url!.slice(MEMBER_PROMOTE_PATH.length) : '0');
      const result = member.isLeader ? await services.cluster.memberPromote({ ID: id }) : { ok: false as const, error: { kind: 'NotLeader' as const } };
      if (result.ok) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(412, { 'content-type': 'application/json' }).end(JSON.stringify({ error: result.error }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
    },
  });
  const gate = authGate(auth, profile, (id) => lessor.timeToLive(id, now())?.keys ?? [], config.clientTransportSecurity.clientCertAuth, () => member.header(store.currentRevision), async () => void (await member.readBarrier()));
  const grpcMetrics = createGrpcMetrics(registry);
  const grpcEdge = createGrpcEdge({
    services,
    maxRecvBytes: config.maxRequestBytes + GRPC_OVERHEAD_BYTES,
    registry,
    metrics: grpcMetrics,
    hasLeader: () => member.leaderId !== 0n,
    electionTimeoutMs: config.electionTimeoutMs,
    isLearner: () => membership.get(memberId)?.isLearner ?? false,
    capable: (path) => capableOf(clusterVersion.current, path),
    maxSendBytes: responseLimitBytes(config.serverVersion),
    logger: log,
    auth: gate,
  });
  const servedV2 = config.enableV2 ? v2Port({ v2, member, membership, cluster: services.cluster, now }) : undefined;
  const servedHttp = clientHttp({
    app: {
      registry,
      maxMessageBytes: config.maxRequestBytes + GRPC_OVERHEAD_BYTES,
      gatewayStreams: new StreamSlots(config.maxConcurrentStreams),
      toStatus,
      logger: log,
      healthBody: healthBodyFor(profile),
      onHealthChecked: (healthy) => (healthy ? metrics.healthSuccess.inc() : metrics.healthFailures.inc()),
      logLevel: { set: (level) => (logger.level = level), deprecated: profile.configLogDeprecated },
    },
    services,
    gate,
    v2: servedV2,
    v2Auth: servedV2 === undefined ? undefined : v2AuthAccess(servedV2, config.clientTransportSecurity.clientCertAuth, () => clusterVersion.current !== undefined),
    minor: clusterVersion.current !== undefined && MINOR_VERSIONS.includes(clusterVersion.current as MinorVersion) ? clusterVersion.current : profile.minor,
    onFault: (err, req) => {
      grpcMetrics.clientFault('http', req.method ?? '');
      log.error({ err, method: req.method, path: req.url, remote: req.socket.remoteAddress }, 'a client request failed inside the member; answered 500');
    },
  });
  http.switchTo = (minor) => servedHttp.switchTo(minor);
  const httpHandler = servedHttp.handler;
  const h2Serving = grpcEdge.h2;
  const local =
    backend.sharedLocation === undefined
      ? undefined
      : frontEndLocal({
          store,
          location: backend.sharedLocation,
          context: () => ({
            ...member.header(0n),
            authEnabled: auth.store.enabled,
            hasLeader: member.leaderId !== 0n,
            learner: membership.get(memberId)?.isLearner ?? false,
          }),
          maxRecvBytes: config.maxRequestBytes + GRPC_OVERHEAD_BYTES,
          maxSendBytes: responseLimitBytes(config.serverVersion),
          maxEventBytes: config.maxRequestBytes + GRPC_OVERHEAD_BYTES,
          progressIntervalMs: config.experimentalWatchProgressNotifyIntervalMs,
          electionTimeoutMs: config.electionTimeoutMs,
          grpcMetrics,
          metrics,
        });
  const onThread = frontEndThreads() > 0;
  const listenClientPort = clientPortListen({
    urls: config.listenClientUrls,
    h2: h2Serving,
    http: httpHandler,
    tls: tls.client,
    logger: log,
    frontEnd: onThread ? { local: local?.options, onClientFault: (path) => grpcEdge.countFault(path) } : undefined,
    hold: serving.opened,
  });
  const metricsApp = createMetricsApp({
    registry,
    info: services.info,
    logger: log,
    healthBody: healthBodyFor(profile),
    onHealthChecked: (healthy) => (healthy ? metrics.healthSuccess.inc() : metrics.healthFailures.inc()),
  });
  const metricsListeners = await listenMetrics(config.listenMetricsUrls, noMethods(), metricsApp.callback(), log, { tls: tls.client }).catch((e: unknown) => {
    throw e instanceof Error && e.message.startsWith('cannot listen on TLS') ? new ConfigProblem(e.message) : e;
  });
  if (metricsListeners.listeners.length > 0) log.info({ 'metrics-urls': metricsListeners.listeners.map((l) => `${l.url.protocol}//${l.address.address}:${l.address.port}`) }, 'serving /metrics and /health');

  const housekeeping = startHousekeeping({
    member,
    store,
    lessor,
    hub,
    compactor: config.autoCompaction ? new Compactor(config.autoCompaction, now()) : undefined,
    progressIntervalMs: config.experimentalWatchProgressNotifyIntervalMs,
    now,
    logger: log,
    onDbSize: (size) => {
      metrics.dbTotalSize.set(size.allocated);
      metrics.dbTotalSizeInUse.set(size.inUse);
      const s = hub.stats();
      const f = local?.watchStats() ?? { streams: 0, watchers: 0, slowWatchers: 0, pendingEvents: 0 };
      metrics.watchStreams.set(s.streams + f.streams);
      metrics.watchers.set(s.watchers + f.watchers);
      metrics.slowWatchers.set(s.slowWatchers + f.slowWatchers);
      metrics.pendingEvents.set(s.pendingEvents + f.pendingEvents);
      metrics.proposalsPending.set(member.pendingProposals);
    },
    onLeaseExpired: (n) => metrics.leaseExpired.inc(n),
  });
  const publisher = publishAttributes(member, config.name, clientUrls, log, () => serving.published());
  const clientPort = clientPortWhenReady({
    ready: serving.opened,
    early: !onThread,
    listen: listenClientPort,
    onListening: (listeners) => log.info({ 'client-urls': boundUrls(listeners), 'server-version': config.serverVersion }, 'ready to serve client requests'),
    onFailed: (e) => {
      if (fatal) return;
      fatal = true;
      log.fatal({ err: e }, 'failed to serve client requests');
      process.exitCode = 1;
      setImmediate(() => process.kill(process.pid, 'SIGTERM'));
    },
  });
  const versions = startVersionMonitor({
    memberId,
    serverVersion: config.serverVersion,
    state: clusterVersion,
    peers: () => membership.list().filter((m) => m.id !== memberId).map((m) => ({ id: m.id, peerURLs: m.peerURLs, started: m.clientURLs.length > 0 })),
    isLeader: () => member.isLeader,
    propose: (ver) => member.propose({ $case: 'clusterVersionSet', value: { ver } }),
    intervalMs: 4000,
    logger: log,
    peerTls: tls.peer?.dial,
  });
  const stopV2 = startV2Upkeep({ v2, member, registry, now, logger: log });
  checkVersions = () => versions.check();
  versions.check();

  let closing: Promise<void> | undefined;
  return {
    memberId,
    clusterId,
    close() {
      closing ??= (async () => {
        housekeeping.stop();
        publisher.stop();
        versions.stop();
        stopV2();
        await handOffLeadership(member, membership, peers.transport, log);
        await Promise.all([clientPort.close(), metricsListeners.close()]);
        await member.stop();
        forwarder.close();
        await peers.transport.close();
        await opened.wal.close();
        await saveIndexCheckpoint(store, layout.indexCheckpointPath, log);
        await backend.close();
        log.info('member stopped');
      })();
      return closing;
    },
  };
}
