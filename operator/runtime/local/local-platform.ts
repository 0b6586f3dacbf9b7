/**
 * `MemberPlatform` with local processes: slot `<cluster>-<i>` is one `kvstore` process on its
 * own loopback address, supervised by this object the way a StatefulSet controller with
 * `OnDelete` updates would: a slot below `replicas` without a live process is started at the
 * template version (`supervise()`), a restart stops the process and starts the same member
 * (name, data dir, URLs, initial-cluster flags) at the template version.
 *
 * Created from a snapshot (EnsureObjects with `restore`, kept in state.json), a founding member
 * whose data dir does not exist is restored from it right before it starts (restore-member.ts).
 *
 * With spec.tls the URLs of the secured listeners are https and each member starts with its
 * generated certificate (local-certificates.ts).
 *
 * Data loss: once a member was seen running with its data (`hasData`), a missing
 * `<data dir>/member` means its data is gone: the member is stopped, never started again as it is
 * (it would rejoin under its old identity with an empty log), and observed as `dataLost` until
 * `resetMember` gives the slot an empty data dir to join with as a learner.
 *
 * Contract: slot addresses are picked once and kept in state.json (FORMAT.md); on open, live
 * members (pid files) are adopted, dead ones are started by the next `supervise()`. Calls for
 * one slot never overlap (a slot being restarted is left alone by `supervise()`).
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { KvstoreCluster } from '../../api/types.js';
import { optionFlags } from '../../controller/builders/member-args.js';
import { clientScheme, memberName, peerScheme } from '../../controller/builders/names.js';
import { portFail, portOk, type EngineLogger, type MemberPlatform, type PlatformSlot, type PlatformView, type PortResult } from '../../controller/ports.js';
import type { LocalLayout } from './layout.js';
import type { LocalCertificates } from './local-certificates.js';
import { pickLoopback } from './loopback.js';
import { restoreMember } from './restore-member.js';
import type { RestoreRequest } from '../../controller/restore/restore-check.js';
import { isAlive, readPid, spawnMember, stopMember } from './member-process.js';
import { EMPTY_STATE, readState, writeState, type LocalState, type SlotRecord } from './state-file.js';

export interface LocalPlatformDeps {
  readonly layout: LocalLayout;
  /** Path of the member entry point (dist/server/main.js); run with process.execPath. */
  readonly kvstoreMain: string;
  readonly logger: EngineLogger;
  readonly random: () => number;
  /** Milliseconds since the epoch (crash-loop backoff). */
  readonly now: () => number;
  /** SIGTERM → SIGKILL grace (default 20 s). */
  readonly stopGraceMs?: number;
  /** The generated TLS files (used when spec.tls asks for TLS). */
  readonly certificates: LocalCertificates;
}

const urlOf = (scheme: string, host: string, port: number): string => `${scheme}://${host}:${port}`;

export class LocalPlatform implements MemberPlatform {
  private state: LocalState = EMPTY_STATE;
  private readonly pids = new Map<string, number>();
  private readonly busy = new Set<string>();
  /** Members started by supervision after dying: how often, and not again before `nextAt`. */
  private readonly crashes = new Map<string, { readonly count: number; readonly nextAt: number }>();
  /** state.json writes, one after the other. */
  private writes: Promise<PortResult<void>> = Promise.resolve(portOk(undefined));

  private constructor(private readonly deps: LocalPlatformDeps) {}

  /** Reads state.json and adopts the members whose processes are still alive. */
  static async open(deps: LocalPlatformDeps): Promise<PortResult<LocalPlatform>> {
    const p = new LocalPlatform(deps);
    const st = await readState(deps.layout.stateFile);
    if (!st.ok) return st;
    p.state = st.value;
    for (const name of Object.keys(p.state.members)) {
      const pid = await readPid(deps.layout.pidFile(name));
      if (pid !== undefined && isAlive(pid, deps.layout.dataDir(name))) {
        p.pids.set(name, pid);
        deps.logger.info({ member: name, pid }, 'adopted running member');
      }
    }
    return portOk(p);
  }

  /** The member ran with its data and its `member/` directory is gone. */
  private dataLost(name: string): boolean {
    return this.state.members[name]?.hasData === true && !existsSync(join(this.deps.layout.dataDir(name), 'member'));
  }

  /** The members whose data is gone (see the header), by name. */
  lostMembers(): readonly string[] {
    return Object.keys(this.state.members).filter((n) => this.dataLost(n)).sort();
  }

  private alive(name: string): boolean {
    const pid = this.pids.get(name);
    return pid !== undefined && isAlive(pid, this.deps.layout.dataDir(name));
  }

  /**
   * The slots 0 … max(replicas, spec.size, recorded) - 1. A slot below spec.size without an
   * address gets one reserved now (kept in state.json), so a member about to be added has a
   * peer URL before it is started (reconcile adds it as a learner first).
   */
  async observe(cluster: KvstoreCluster): Promise<PortResult<PlatformView>> {
    const ordinal = (n: string): number => Number(n.slice(cluster.metadata.name.length + 1));
    if (this.state.replicas > 0) {
      const reserved: Record<string, SlotRecord> = {};
      for (let i = this.state.replicas; i < cluster.spec.size; i++) {
        const name = memberName(cluster, i);
        if (this.state.members[name] === undefined) reserved[name] = { ...(await pickLoopback(this.deps.random)), version: '', join: 'existing' };
      }
      if (Object.keys(reserved).length > 0) {
        const saved = await this.save({ ...this.state, members: { ...this.state.members, ...reserved } });
        if (!saved.ok) return saved;
      }
    }
    const names = Object.keys(this.state.members);
    const count = Math.max(this.state.replicas, ...names.map((n) => ordinal(n) + 1), 0);
    const slots: PlatformSlot[] = [];
    for (let i = 0; i < count; i++) {
      const name = memberName(cluster, i);
      const rec = this.state.members[name];
      const running = rec !== undefined && this.alive(name);
      slots.push({
        name,
        ordinal: i,
        exists: rec !== undefined && (i < this.state.replicas || running),
        running,
        runVersion: running ? rec.version : '',
        clientURL: rec === undefined ? '' : urlOf(clientScheme(cluster), rec.host, rec.clientPort),
        peerURL: rec === undefined ? '' : urlOf(peerScheme(cluster), rec.host, rec.peerPort),
        ...(rec !== undefined && this.dataLost(name) ? { dataLost: true } : {}),
      });
    }
    return portOk({ objectsExist: this.state.replicas > 0, templateVersion: this.state.templateVersion, replicas: this.state.replicas, slots });
  }

  async ensureObjects(cluster: KvstoreCluster, version: string, replicas: number, restore?: RestoreRequest): Promise<PortResult<void>> {
    const creating = this.state.replicas === 0;
    const restoreFrom = creating && restore !== undefined ? { restore: { file: restore.file, sha256: restore.sha256 } } : this.state.restore === undefined ? {} : { restore: this.state.restore };
    const members: Record<string, SlotRecord> = { ...this.state.members };
    for (let i = 0; i < replicas; i++) {
      const name = memberName(cluster, i);
      const rec = members[name] ?? { ...(await pickLoopback(this.deps.random)), version, join: 'existing' as const };
      members[name] = creating ? { ...rec, join: 'new' } : rec;
    }
    const removed = Object.keys(members).filter((n) => Number(n.slice(cluster.metadata.name.length + 1)) >= Math.max(replicas, cluster.spec.size));
    for (const name of removed) {
      await this.stop(name);
      await rm(this.deps.layout.dataDir(name), { recursive: true, force: true });
      delete members[name];
    }
    const token = this.state.token || `${cluster.metadata.name}-${Math.floor(this.deps.random() * 0xffffffff).toString(16)}`;
    const saved = await this.save({ templateVersion: version, replicas, token, members, ...restoreFrom });
    if (!saved.ok) return saved;
    return this.supervise(cluster);
  }

  async setTemplateVersion(_cluster: KvstoreCluster, version: string): Promise<PortResult<void>> {
    return this.save({ ...this.state, templateVersion: version });
  }

  async restartMember(cluster: KvstoreCluster, name: string): Promise<PortResult<void>> {
    if (this.state.members[name] === undefined) return portFail(`no member ${name}`);
    this.busy.add(name);
    try {
      await this.stop(name);
      return await this.start(cluster, name);
    } finally {
      this.busy.delete(name);
    }
  }

  async resetMember(cluster: KvstoreCluster, name: string): Promise<PortResult<void>> {
    const rec = this.state.members[name];
    if (rec === undefined) return portFail(`no member ${name}`);
    this.busy.add(name);
    try {
      await this.stop(name);
      await rm(this.deps.layout.dataDir(name), { recursive: true, force: true });
      const { hasData: _lost, ...kept } = rec;
      const saved = await this.save({ ...this.state, members: { ...this.state.members, [name]: { ...kept, join: 'existing' } } });
      if (!saved.ok) return saved;
      return await this.start(cluster, name);
    } finally {
      this.busy.delete(name);
    }
  }

  /**
   * Starts every slot below `replicas` that has no live process (and is not being restarted).
   * A member that keeps dying is started again after 1 s, 2 s, 4 s … at most 30 s apart (the
   * backoff is forgotten once it has stayed up for a minute). A member whose data is gone is
   * stopped and left stopped; a running member with its data gets `hasData` recorded.
   */
  async supervise(cluster: KvstoreCluster): Promise<PortResult<void>> {
    const now = this.deps.now();
    const starts: Promise<PortResult<void>>[] = [];
    for (let i = 0; i < this.state.replicas; i++) {
      const name = memberName(cluster, i);
      if (this.busy.has(name) || this.state.members[name] === undefined) continue;
      if (this.dataLost(name)) {
        if (this.alive(name)) {
          this.deps.logger.warn({ member: name }, 'the data dir of the member is gone; stopping it (the operator replaces it)');
          starts.push(this.guarded(name, async () => (await this.stop(name), portOk(undefined))));
        }
        continue;
      }
      const crash = this.crashes.get(name);
      if (this.alive(name)) {
        if (this.state.members[name]?.hasData !== true && existsSync(join(this.deps.layout.dataDir(name), 'member'))) await this.markHasData(name);
        if (crash !== undefined && now > crash.nextAt + 60_000) this.crashes.delete(name);
        continue;
      }
      if (crash !== undefined && now < crash.nextAt) continue;
      if (this.pids.has(name)) {
        // It ran and died (a first start has no pid yet).
        const count = (crash?.count ?? 0) + 1;
        this.deps.logger.warn({ member: name, restarts: count }, 'member not running; starting it again');
        this.crashes.set(name, { count, nextAt: now + Math.min(1000 * 2 ** (count - 1), 30_000) });
      }
      starts.push(this.guarded(name, () => this.start(cluster, name)));
    }
    const failed = (await Promise.all(starts)).find((r) => !r.ok);
    return failed ?? portOk(undefined);
  }

  /**
   * Stops every member, one after the other (a stopping leader hands leadership to a member
   * still running, which stopping them all at once would leave it waiting for); on exit.
   */
  async stopAll(): Promise<void> {
    for (const name of [...this.pids.keys()].sort()) await this.guarded(name, async () => (await this.stop(name), portOk(undefined)));
  }

  private async guarded(name: string, f: () => Promise<PortResult<void>>): Promise<PortResult<void>> {
    this.busy.add(name);
    try {
      return await f();
    } finally {
      this.busy.delete(name);
    }
  }

  private async stop(name: string): Promise<void> {
    const pid = this.pids.get(name);
    if (pid === undefined) return;
    this.deps.logger.info({ member: name, pid }, 'stopping member');
    await stopMember(pid, this.deps.layout.dataDir(name), this.deps.layout.pidFile(name), this.deps.stopGraceMs ?? 20_000);
    this.pids.delete(name);
  }

  private async markHasData(name: string): Promise<void> {
    const rec = this.state.members[name];
    if (rec === undefined) return;
    const saved = await this.save({ ...this.state, members: { ...this.state.members, [name]: { ...rec, hasData: true } } });
    if (!saved.ok) this.deps.logger.warn({ member: name, error: saved.error }, 'could not record that the member has data');
  }

  private async start(cluster: KvstoreCluster, name: string): Promise<PortResult<void>> {
    if (this.dataLost(name)) return portFail(`the data of ${name} is gone: it is replaced (reset and re-added as a learner), not started again as it is`);
    const rec = this.state.members[name];
    const version = this.state.templateVersion;
    const { layout } = this.deps;
    const peers = Object.entries(this.state.members)
      .filter(([n]) => Number(n.slice(cluster.metadata.name.length + 1)) < this.state.replicas)
      .map(([n, r]) => `${n}=${urlOf(peerScheme(cluster), r.host, r.peerPort)}`)
      .join(',');
    const client = urlOf(clientScheme(cluster), rec.host, rec.clientPort);
    const peer = urlOf(peerScheme(cluster), rec.host, rec.peerPort);
    await mkdir(layout.base, { recursive: true });
    if (this.state.restore !== undefined && rec.join === 'new') {
      const r = await restoreMember({ request: this.state.restore, dataDir: layout.dataDir(name), name, peerURL: peer, initialCluster: peers, token: this.state.token });
      if (!r.ok) return r;
      if (r.value.restored) this.deps.logger.info({ member: name, file: this.state.restore.file }, 'restored member data dir from snapshot');
    }
    const tls = await this.tlsFlags(cluster, name, rec.host);
    if (!tls.ok) return tls;
    const r = await spawnMember({
      command: process.execPath,
      args: [
        this.deps.kvstoreMain,
        `--name=${name}`,
        `--data-dir=${layout.dataDir(name)}`,
        `--listen-client-urls=${client}`,
        `--advertise-client-urls=${client}`,
        `--listen-peer-urls=${peer}`,
        `--initial-advertise-peer-urls=${peer}`,
        `--initial-cluster=${peers}`,
        `--initial-cluster-token=${this.state.token}`,
        `--initial-cluster-state=${rec.join}`,
        ...tls.value,
        ...optionFlags(cluster.spec.options, version),
      ],
      env: { KVSTORE_SERVER_VERSION: version },
      logFile: layout.logFile(name),
      pidFile: layout.pidFile(name),
      banner: `${name} at ${version}`,
    });
    if (!r.ok) return r;
    this.pids.set(name, r.value);
    this.deps.logger.info({ member: name, pid: r.value, version, clientURL: client }, 'started member');
    return this.save({ ...this.state, members: { ...this.state.members, [name]: { ...rec, version } } });
  }

  /**
   * The certificate flags spec.tls asks for: the member's generated certificate serves its client
   * listener, its peer listener and its peer dialing; the local CA is trusted for both, with
   * client certificates required (`--client-cert-auth`, `--peer-client-cert-auth`).
   */
  private async tlsFlags(cluster: KvstoreCluster, name: string, host: string): Promise<PortResult<string[]>> {
    const tls = cluster.spec.tls;
    if (tls?.client === undefined && tls?.peer === undefined) return portOk([]);
    const files = await this.deps.certificates.memberFiles(name, host);
    if (!files.ok) return files;
    const f = files.value;
    const flags = (prefix: string): string[] => [
      `--${prefix}cert-file=${f.certFile}`,
      `--${prefix}key-file=${f.keyFile}`,
      `--${prefix}trusted-ca-file=${f.caFile}`,
      `--${prefix}client-cert-auth=true`,
    ];
    return portOk([...(tls.client === undefined ? [] : flags('')), ...(tls.peer === undefined ? [] : flags('peer-'))]);
  }

  private save(next: LocalState): Promise<PortResult<void>> {
    this.state = next;
    this.writes = this.writes.then(() => writeState(this.deps.layout.stateFile, this.state));
    return this.writes;
  }
}
