/**
 * Renders a Helm chart offline with test/support/chart-render/main.go (Go text/template + sprig,
 * the engine Helm uses). The Go program is compiled once per content (its SHA-256 names the
 * cached binary in the temp dir) against Debian's packaged sprig in GOPATH mode, with no network:
 * `apt-get install golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v2-dev`.
 * Environment: CHART_RENDER_GOPATH (default /usr/share/gocode), GO_BIN (default `go`).
 * Results are values: a template error (`required`, `fail`, a parse error) is `{ ok: false }`.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BUILD_ROOT } from '../paths.js';

export interface RenderOptions {
  readonly releaseName?: string;
  readonly namespace?: string;
  /** Values files given in order (`-f`), as objects. */
  readonly values?: readonly Readonly<Record<string, unknown>>[];
  /** API versions the cluster serves beyond the built-in ones (e.g. `monitoring.coreos.com/v1`). */
  readonly apiVersions?: readonly string[];
}

export type RenderResult =
  | {
      readonly ok: true;
      /** Rendered template text by template name (`<chart>/templates/x.yaml`); blank files left out. */
      readonly manifests: Readonly<Record<string, string>>;
      readonly notes: string;
      /** The coalesced values the templates saw. */
      readonly values: Readonly<Record<string, unknown>>;
    }
  | { readonly ok: false; readonly error: string };

/** The Go source, next to this file in the repository (the compiled test lives under the build dir). */
export const RENDERER_SOURCE = join(dirname(BUILD_ROOT), 'test', 'support', 'chart-render', 'main.go');

const GO_MOD = 'module chartrender\n\ngo 1.19\n';

/**
 * Path of the compiled renderer, building it if this content was not built before. Throws with
 * the compiler output (or an install hint when Go is missing).
 */
export function rendererBinary(): string {
  const source = readFileSync(RENDERER_SOURCE);
  const hash = createHash('sha256').update(source).update(GO_MOD).digest('hex').slice(0, 16);
  const root = join(tmpdir(), `kvstore-chart-render-${hash}`);
  const binary = join(root, 'chart-render');
  if (existsSync(binary)) return binary;
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(root, 'build-'));
  try {
    const pkg = join(work, 'gopath', 'src', 'chartrender');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'main.go'), source);
    // A go.mod beside the package lets GOPATH mode resolve sprig's `/v3` imports (minimal module compatibility).
    writeFileSync(join(pkg, 'go.mod'), GO_MOD);
    const gopath = `${join(work, 'gopath')}:${process.env.CHART_RENDER_GOPATH ?? '/usr/share/gocode'}`;
    const out = join(work, 'chart-render');
    const res = spawnSync(process.env.GO_BIN ?? 'go', ['build', '-o', out, '.'], {
      cwd: pkg,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, GO111MODULE: 'off', GOPATH: gopath, GOCACHE: join(root, 'gocache'), GOFLAGS: '', CGO_ENABLED: '0' },
    });
    if (res.error !== undefined && 'code' in res.error && res.error.code === 'ENOENT') {
      throw new Error('chart rendering needs Go and sprig: apt-get install -y golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v2-dev');
    }
    if (res.status !== 0) throw new Error(`building the chart renderer failed:\n${res.stderr}${res.error?.message ?? ''}`);
    renameSync(out, binary); // atomic: a concurrent build of the same content writes the same file
    return binary;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Renders `chartDir` like `helm template <releaseName> <chartDir> -n <namespace> -f …`. */
export function renderChart(chartDir: string, opts: RenderOptions = {}): RenderResult {
  const binary = rendererBinary();
  const dir = mkdtempSync(join(tmpdir(), 'chart-values-'));
  try {
    const args = ['--chart', chartDir, '--name', opts.releaseName ?? 'kvstore-operator', '--namespace', opts.namespace ?? 'kvstore-system'];
    (opts.values ?? []).forEach((v, i) => {
      const file = join(dir, `values-${i}.json`); // JSON is YAML
      writeFileSync(file, JSON.stringify(v));
      args.push('-f', file);
    });
    if (opts.apiVersions !== undefined && opts.apiVersions.length > 0) args.push('--api-versions', opts.apiVersions.join(','));
    const res = spawnSync(binary, args, { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    if (res.status !== 0) return { ok: false, error: (res.stderr || res.error?.message) ?? `exit ${String(res.status)}` };
    const parsed = JSON.parse(res.stdout) as { manifests: Record<string, string>; notes: string; values: Record<string, unknown> };
    return { ok: true, manifests: parsed.manifests, notes: parsed.notes, values: parsed.values };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
