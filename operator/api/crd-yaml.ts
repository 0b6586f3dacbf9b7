/**
 * The CRD as the YAML file committed at deploy/crd/kvstore.io_kvstoreclusters.yaml
 * (written by scripts/crd-gen.mjs; a test fails when the file differs from this text).
 */
import { stringify } from 'yaml';
import { clusterCrd } from './crd.js';

/** Path of the generated file, relative to the repository root. */
export const CRD_FILE = 'deploy/crd/kvstore.io_kvstoreclusters.yaml';

const HEADER = '# Generated from operator/api/schema*.ts by `npm run crd:gen` (after a build). Do not edit.\n';

export function crdYaml(): string {
  return HEADER + stringify(clusterCrd(), { lineWidth: 0, aliasDuplicateObjects: false });
}
