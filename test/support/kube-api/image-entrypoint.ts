/**
 * What an image runs, read from the Dockerfile it is built from (deploy/docker/), so the test
 * kubelet starts a pod's container as the image would: ENTRYPOINT and CMD of the final stage
 * (exec form), combined with the container's `command` and `args` by Kubernetes' rules —
 * `command` replaces ENTRYPOINT (and drops CMD), `args` replaces CMD. The executable is then
 * one the images hold: `kvstore`, `kvstorectl`, `kvstore-operator` (package.json `bin`, by base
 * name, as the images link them into /usr/local/bin) or `node`. Pure apart from reading the
 * Dockerfile.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface ImageProcess {
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
}

/** The executables the images hold. */
export const IMAGE_EXECUTABLES = ['kvstore', 'kvstorectl', 'kvstore-operator', 'node'] as const;
export type ImageExecutable = (typeof IMAGE_EXECUTABLES)[number];

/** The Dockerfile each of the project's image repositories is built from. */
const DOCKERFILE_OF: Readonly<Record<string, string>> = {
  'kvstore/kvstore': 'member.Dockerfile',
  'kvstore/kvstore-operator': 'operator.Dockerfile',
};

/**
 * ENTRYPOINT and CMD of a Dockerfile's last stage, exec form only. A `CMD` continuing a
 * `HEALTHCHECK` (an indented line) is the health check's, not the image's.
 */
export function dockerfileProcess(text: string): ImageProcess {
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  const lastFrom = lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  let entrypoint: string[] = [];
  let cmd: string[] = [];
  for (const line of lines.slice(Math.max(0, lastFrom))) {
    const m = /^(ENTRYPOINT|CMD)\s+(\[.*\])\s*$/i.exec(line);
    if (m === null) continue;
    const value = JSON.parse(m[2]!) as unknown;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`not an exec-form ${m[1]}: ${line}`);
    if (m[1]!.toUpperCase() === 'ENTRYPOINT') {
      entrypoint = value;
      cmd = []; // Docker: a later ENTRYPOINT resets an inherited CMD.
    } else cmd = value;
  }
  return { entrypoint, cmd };
}

/** The repository of an image reference (`kvstore/kvstore:3.5.0` → `kvstore/kvstore`; a `docker.io/` prefix dropped). */
export function repositoryOf(image: string): string {
  const noDigest = image.split('@')[0]!;
  const colon = noDigest.lastIndexOf(':');
  const repo = colon > noDigest.lastIndexOf('/') ? noDigest.slice(0, colon) : noDigest;
  return repo.replace(/^(docker\.io|localhost)\//, '');
}

/** What the project's image `image` runs, from its Dockerfile under `repoRoot`; undefined for another image. */
export function imageProcess(image: string | undefined, repoRoot: string): ImageProcess | undefined {
  const file = image === undefined ? undefined : DOCKERFILE_OF[repositoryOf(image)];
  return file === undefined ? undefined : dockerfileProcess(readFileSync(join(repoRoot, 'deploy', 'docker', file), 'utf8'));
}

/** The argv a container runs: Kubernetes' rules over the image's ENTRYPOINT and CMD. */
export function containerArgv(image: ImageProcess | undefined, command: readonly string[] | undefined, args: readonly string[] | undefined): string[] {
  if (command !== undefined && command.length > 0) return [...command, ...(args ?? [])];
  return [...(image?.entrypoint ?? []), ...(args ?? image?.cmd ?? [])];
}

/** The image executable `argv0` names (by base name, as the images link them), or undefined. */
export function imageExecutable(argv0: string | undefined): ImageExecutable | undefined {
  const name = argv0 === undefined ? undefined : basename(argv0);
  return IMAGE_EXECUTABLES.find((e) => e === name);
}
