import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ensureGoTool } from '../../infra/kubernetes-tools';
import { REPO_ROOT } from '../../infra/paths';

export const KUBERNETES_DIR = join(REPO_ROOT, 'deploy', 'kubernetes');

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** What `kustomize build` prints for a kustomization folder (under deploy/kubernetes/, or any folder). */
export function renderKustomization(dir: string): string {
  return execFileSync(ensureGoTool('kustomize'), ['build', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** An overlay with components added, rendered from a temporary kustomization that refers to it. */
export function renderWithComponents(overlay: string, components: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
  try {
    const rel = (p: string) => relative(dir, join(KUBERNETES_DIR, p));
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      ['apiVersion: kustomize.config.k8s.io/v1beta1', 'kind: Kustomization', `resources: [${rel(overlay)}]`, `components: [${components.map(rel).join(', ')}]`, ''].join('\n'),
    );
    return renderKustomization(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function objects(rendered: string): K8sObject[] {
  return parseAllDocuments(rendered)
    .map((d) => d.toJS() as K8sObject)
    .filter(Boolean);
}

/** Every rendering the project ships: the base, both overlays, and Temporal Cloud with mTLS. */
export function renderAll(): Record<string, string> {
  return {
    base: renderKustomization(join(KUBERNETES_DIR, 'base')),
    local: renderKustomization(join(KUBERNETES_DIR, 'overlays', 'local')),
    'aws-temporal-cloud': renderKustomization(join(KUBERNETES_DIR, 'overlays', 'aws-temporal-cloud')),
    'aws-temporal-cloud+mtls': renderWithComponents('overlays/aws-temporal-cloud', ['components/temporal-cloud-mtls']),
  };
}
