/**
 * The operator image in local mode, as `npm run images -- --smoke` runs it: `kvstore-operator
 * local -f /work/cluster.yaml` in a container on the host network, with a copy of
 * deploy/local/cluster.yaml in a bind-mounted directory owned by uid 1000 (the image's user).
 * The members are kvstore processes inside the container, on loopback addresses the operator
 * picks; the operator writes `status:` back into the file, which the test reads from the host.
 */
import { chownSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseDocument, stringify } from 'yaml';
import { REPO_ROOT, type Engine } from './engine.js';
import { removeByPrefix } from './member-containers.js';

/** The part of the status the test reads. */
export interface LocalStatus {
  readonly phase?: string;
  readonly readyMembers?: string;
  readonly clusterVersion?: string;
  readonly upgrade?: { readonly from?: string; readonly to?: string; readonly state?: string; readonly membersDone?: readonly string[] };
  readonly members?: readonly { readonly name?: string; readonly clientURL?: string; readonly healthy?: boolean }[];
}

export class OperatorContainer {
  readonly dir: string;
  readonly name: string;

  /** Removes what an earlier run left (its container, its directories), then makes a new directory. */
  constructor(private readonly engine: Engine, prefix: string) {
    this.name = `${prefix}-operator`;
    removeByPrefix(engine, this.name);
    for (const d of readdirSync(tmpdir()).filter((x) => x.startsWith(`${this.name}-`))) rmSync(join(tmpdir(), d), { recursive: true, force: true });
    this.dir = mkdtempSync(join(tmpdir(), `${this.name}-`));
  }

  /** Writes the manifest (deploy/local/cluster.yaml with `edit` applied) and starts the container. */
  start(image: string, edit: (spec: Record<string, unknown>) => void): void {
    const manifest = parse(readFileSync(join(REPO_ROOT, 'deploy/local/cluster.yaml'), 'utf8')) as { spec: Record<string, unknown> };
    edit(manifest.spec);
    const file = join(this.dir, 'cluster.yaml');
    writeFileSync(file, stringify(manifest));
    chownSync(this.dir, 1000, 1000);
    chownSync(file, 1000, 1000);
    const r = this.engine.capture(['run', '-d', ...this.engine.healthRunFlags, '--name', this.name, '--network', 'host',
      '-v', `${this.dir}:/work`, '-w', '/work', image, 'local', '-f', '/work/cluster.yaml'], { timeoutMs: 120_000 });
    if (r.code !== 0) throw new Error(`podman run ${image}: exit ${r.code}: ${r.out.trim()}`);
  }

  /**
   * Sets spec.version in the file as a user's editor would (the rest of the text kept; written to a
   * temporary file owned by uid 1000 and renamed over the manifest, so the operator never reads half of it).
   */
  setVersion(version: string): void {
    const file = join(this.dir, 'cluster.yaml');
    const doc = parseDocument(readFileSync(file, 'utf8'));
    doc.setIn(['spec', 'version'], version);
    const tmp = join(this.dir, '.cluster.yaml.edit');
    writeFileSync(tmp, doc.toString());
    chownSync(tmp, 1000, 1000);
    renameSync(tmp, file);
  }

  status(): LocalStatus {
    const doc = parse(readFileSync(join(this.dir, 'cluster.yaml'), 'utf8')) as { status?: LocalStatus } | null;
    return doc?.status ?? {};
  }

  /** The status block as YAML, for failure messages. */
  describe(): string {
    return stringify(this.status());
  }

  logs(lines = 40): string {
    return this.engine.capture(['logs', '--tail', String(lines), this.name]).out;
  }

  /** Stops the operator (it stops its members on SIGTERM), removes the container and the directory. */
  remove(): void {
    this.engine.capture(['stop', '-t', '20', this.name], { timeoutMs: 60_000 });
    this.engine.capture(['rm', '-f', '-v', this.name], { timeoutMs: 60_000 });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
