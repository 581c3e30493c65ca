import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPython } from './binaries';
import { goEnv } from './go-env';
import { withDirLock } from './lock';
import { cacheDir } from './paths';

/**
 * The tools that render and validate the Kubernetes manifests (deploy/kubernetes/), built or
 * fetched once per machine into the binaries cache, from the package registries only:
 * kustomize and kubeconform built from their Go modules (Go module proxy), and the Kubernetes
 * API's JSON Schemas from the PyPI package kubernetes-validate, which carries them per
 * Kubernetes release (generated from the API's OpenAPI spec).
 */
export const GO_TOOLS = {
  kustomize: { module: 'sigs.k8s.io/kustomize/kustomize/v5', version: 'v5.8.2' },
  kubeconform: { module: 'github.com/yannh/kubeconform/cmd/kubeconform', version: 'v0.8.0' },
} as const;
export type GoTool = keyof typeof GO_TOOLS;

export const KUBERNETES_SCHEMAS = { pypi: 'kubernetes-validate', version: '1.37.0' } as const;
/** The Kubernetes releases the manifests are validated against: the oldest and the newest we support. */
export const KUBERNETES_VERSIONS = ['1.33.0', '1.37.0'] as const;

export function goToolPath(name: GoTool): string {
  return join(cacheDir(), 'bin', `${name}-${GO_TOOLS[name].version}`, name);
}

/** Returns the tool's binary, building it with `go install module@version` when the cache has none. */
export function ensureGoTool(name: GoTool, log: (line: string) => void = () => {}): string {
  const target = goToolPath(name);
  if (existsSync(target)) return target;
  return withDirLock(join(cacheDir(), 'locks', name), () => {
    if (existsSync(target)) return target;
    const { module, version } = GO_TOOLS[name];
    const started = Date.now();
    log(`building ${module}@${version} with go install (one-time, cached in ${target}) …`);
    mkdirSync(join(cacheDir(), 'bin'), { recursive: true });
    const tmp = mkdtempSync(join(cacheDir(), 'bin', `.${name}-`));
    try {
      try {
        execFileSync('go', ['install', `${module}@${version}`], { cwd: tmp, env: goEnv({ gobin: tmp }), stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (e) {
        const stderr = String((e as { stderr?: Buffer }).stderr ?? '').trim();
        throw new Error(`go install ${module}@${version} failed${(e as NodeJS.ErrnoException).code === 'ENOENT' ? ': no `go` command on PATH (install Go)' : `:\n${stderr}`}`);
      }
      mkdirSync(join(target, '..'), { recursive: true });
      renameSync(join(tmp, name), target);
      log(`built ${name} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      return target;
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
}

/**
 * A folder of kubeconform schemas (`<dir>/v<version>-standalone-strict/<kind>-<group>-<version>.json`)
 * for KUBERNETES_VERSIONS. The package's schemas refer to one shared definitions file; each is
 * written here standalone (the definitions it reaches, inlined under $defs), the layout
 * kubeconform reads from a local path.
 */
export function ensureKubernetesSchemas(log: (line: string) => void = () => {}): string {
  const dir = join(cacheDir(), 'kubernetes-json-schema', `${KUBERNETES_SCHEMAS.pypi}-${KUBERNETES_SCHEMAS.version}`);
  const complete = join(dir, 'complete');
  if (existsSync(complete)) return dir;
  return withDirLock(join(cacheDir(), 'locks', 'kubernetes-json-schema'), () => {
    if (existsSync(complete)) return dir;
    const { pypi, version } = KUBERNETES_SCHEMAS;
    log(`fetching ${pypi}==${version} (Kubernetes API schemas; one-time, cached in ${dir}) …`);
    mkdirSync(join(cacheDir(), 'bin'), { recursive: true });
    const tmp = mkdtempSync(join(cacheDir(), 'bin', '.schemas-'));
    try {
      const python = findPython();
      execFileSync(python, ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-q', '-d', tmp, `${pypi}==${version}`], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const wheel = readdirSync(tmp).find((f) => f.endsWith('.whl'));
      if (!wheel) throw new Error(`pip downloaded no wheel for ${pypi}==${version}`);
      execFileSync(python, ['-m', 'zipfile', '-e', join(tmp, wheel), join(tmp, 'x')]);
      rmSync(dir, { recursive: true, force: true });
      for (const k8s of KUBERNETES_VERSIONS) {
        const source = join(tmp, 'x', 'kubernetes_validate', 'kubernetes-json-schema', `v${k8s}-local-strict`);
        if (!existsSync(source)) throw new Error(`${pypi}==${version} has no schemas for Kubernetes ${k8s}`);
        writeStandaloneSchemas(source, join(dir, `v${k8s}-standalone-strict`));
      }
      writeFileSync(complete, `${pypi}==${version}\n`);
      return dir;
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
}

type Json = unknown;

function writeStandaloneSchemas(source: string, target: string): void {
  mkdirSync(target, { recursive: true });
  const defs = (JSON.parse(readFileSync(join(source, '_definitions.json'), 'utf8')) as { $defs: Record<string, Json> }).$defs;
  for (const file of readdirSync(source)) {
    if (!file.endsWith('.json') || file === '_definitions.json' || file === 'all.json') continue;
    const schema = JSON.parse(readFileSync(join(source, file), 'utf8')) as Record<string, Json>;
    const reached: Record<string, Json> = {};
    const pending: Json[] = [schema];
    const visit = (node: Json): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      const obj = node as Record<string, Json>;
      for (const [key, value] of Object.entries(obj)) {
        if (key === '$ref' && typeof value === 'string' && value.includes('#/$defs/')) {
          const name = value.slice(value.indexOf('#/$defs/') + '#/$defs/'.length);
          obj[key] = `#/$defs/${name}`;
          if (!(name in reached)) {
            if (!(name in defs)) throw new Error(`${file}: $ref to unknown definition ${name}`);
            reached[name] = structuredClone(defs[name]);
            pending.push(reached[name]);
          }
        } else visit(value);
      }
    };
    while (pending.length) visit(pending.pop());
    if (Object.keys(reached).length) schema.$defs = reached;
    writeFileSync(join(target, file), JSON.stringify(schema));
  }
}

/** kubeconform's -schema-location for the folder of ensureKubernetesSchemas. */
export function schemaLocation(dir: string): string {
  return `${dir}/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
}
