/**
 * What the operator creates for the example clusters, checked like every other manifest we ship:
 * the owned objects (peer and client Services, StatefulSet, PodDisruptionBudget) built by the
 * operator's own builders for each deploy/examples manifest are valid against the Kubernetes
 * schemas (unknown fields are errors), have names and labels the API server accepts, and the
 * member pods pass the restricted Pod Security profile. The member pod template and the member
 * image agree: the uid the pod runs as is the image's USER, the command is a binary the image puts
 * on the PATH, the ports are the ones it exposes, the data directory is on the image's volume and
 * set through KVSTORE_DATA_DIR (never `--data-dir`, which 3.4+ refuses beside the variable).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { parseCluster } from '../../operator/api/parse.js';
import { buildOwnedObjects } from '../../operator/controller/builders/owned-objects.js';
import { execForm, instructions, keyValues, parseDockerfile, type Stage } from './support/dockerfile.js';
import { nameProblems, validateAll } from './support/operator-install.js';
import { restrictedViolations } from './support/pod-security.js';
import { readRepoFile, repoPath } from './support/repo.js';
import { parseObjects, type K8sObject } from './support/yaml-docs.js';

type Obj = Record<string, unknown>;

const examples = [
  ...readdirSync(repoPath('deploy/examples')).filter((f) => f.startsWith('cluster-') && f.endsWith('.yaml')),
  'tls/cluster-tls.yaml',
  'auth/cluster-auth.yaml',
];

const memberImage = ((): Stage => {
  const df = parseDockerfile(readRepoFile('deploy/docker/member.Dockerfile'));
  return df.stages[df.stages.length - 1] as Stage;
})();

/** The objects the operator owns for an example, as it would create them in namespace `demo`. */
function ownedObjectsOf(file: string): { objects: K8sObject[]; version: string; image: string } {
  const doc = parseObjects(readRepoFile(`deploy/examples/${file}`), file)[0] as K8sObject;
  const parsed = parseCluster({ ...doc, metadata: { ...doc.metadata, namespace: 'demo', uid: '00000000-0000-4000-8000-000000000001' } });
  assert.equal(parsed.kind, 'Valid', JSON.stringify(parsed));
  if (parsed.kind !== 'Valid') throw new Error('unreachable');
  const spec = parsed.cluster.spec;
  const objects = buildOwnedObjects(parsed.cluster, { members: spec.size, version: spec.version }) as unknown as K8sObject[];
  return { objects, version: spec.version, image: spec.image };
}

for (const file of examples) {
  void test(`${file}: the objects the operator builds are valid Kubernetes objects; member pods pass the restricted profile`, async () => {
    const { objects } = ownedObjectsOf(file);
    assert.deepEqual(objects.map((o) => o.kind).sort(), ['PodDisruptionBudget', 'Service', 'Service', 'StatefulSet']);
    assert.deepEqual(await validateAll(objects, []), []);
    assert.deepEqual(nameProblems(objects), []);
    const sts = objects.find((o) => o.kind === 'StatefulSet') as K8sObject;
    const pod = ((sts.spec as Obj).template as Obj).spec as Obj;
    assert.deepEqual(restrictedViolations(pod), []);
  });

  void test(`${file}: the member pod template fits the member image`, () => {
    const { objects, version, image } = ownedObjectsOf(file);
    const sts = objects.find((o) => o.kind === 'StatefulSet') as K8sObject;
    const pod = ((sts.spec as Obj).template as Obj).spec as Obj;
    const c = (pod.containers as Obj[])[0] as Obj;

    const [uid, gid] = (instructions(memberImage, 'USER').pop()?.args ?? '').split(':').map(Number);
    const podSc = pod.securityContext as Obj;
    assert.equal(podSc.runAsUser, uid, 'the image user');
    assert.equal(podSc.runAsGroup ?? gid, gid);

    const linked = [...instructions(memberImage, 'RUN').map((r) => r.args).join('\n').matchAll(/\/usr\/local\/bin\/(\S+)/g)].map((m) => m[1]);
    const command = (c.command as string[] | undefined) ?? execForm(instructions(memberImage, 'ENTRYPOINT').pop()?.args ?? '') ?? [];
    assert.ok(linked.includes(command[0]), `${command[0] ?? ''} is on the image's PATH`);

    const exposed = instructions(memberImage, 'EXPOSE').flatMap((e) => e.args.split(/\s+/)).map(Number).sort();
    assert.deepEqual(((c.ports as Obj[]).map((p) => p.containerPort) as number[]).sort(), exposed);

    const env = new Map((c.env as Obj[]).map((e) => [e.name as string, e.value as string | undefined]));
    assert.equal(env.get('KVSTORE_SERVER_VERSION'), version);
    assert.equal(c.image, `${image}:${version}`, 'spec.image tagged with the version');
    const volume = (execForm(instructions(memberImage, 'VOLUME').pop()?.args ?? '') ?? [])[0] ?? '';
    const dataDir = env.get('KVSTORE_DATA_DIR') ?? keyValues(instructions(memberImage, 'ENV').map((e) => e.args).join(' ')).get('KVSTORE_DATA_DIR') ?? '';
    assert.ok(dataDir === volume || dataDir.startsWith(`${volume}/`), `data dir ${dataDir} is on the image volume ${volume}`);
    const mounts = c.volumeMounts as Obj[];
    assert.ok(mounts.some((m) => m.mountPath === volume), 'the member volume claim is mounted on the image volume');
    const args = (c.args as string[] | undefined) ?? [];
    assert.ok(!args.some((a) => a === '--data-dir' || a.startsWith('--data-dir=')), 'no --data-dir beside KVSTORE_DATA_DIR');
  });
}
