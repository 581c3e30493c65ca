import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfig } from '../../core';
import { REPO_ROOT } from '../../infra/paths';
import { parseDockerfile, stageEnv } from '../support/dockerfile';
import { objects, renderAll } from '../support/kubernetes';

/**
 * Every environment variable the code reads is documented (docs/configuration.md)
 * and set somewhere a deployment sets things (the image, docker-compose.yml, the Kubernetes
 * manifests), or listed below as not for deployments, with the reason. And everything the
 * deployments set is read by the code or a library it uses (no typos, no leftovers).
 */
const SOURCE_DIRS = ['core', 'storage', 'activities', 'client', 'workflows', 'runtime', 'workers', 'console', 'cli', 'bin', 'infra', 'scripts'];

/** Read on our behalf by libraries (not as `env.NAME` in our code). */
const READ_BY_LIBRARIES: Record<string, string> = {
  TEMPORAL_API_KEY: '@temporalio/envconfig',
  TEMPORAL_TLS: '@temporalio/envconfig',
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: '@temporalio/envconfig',
  TEMPORAL_TLS_SERVER_NAME: '@temporalio/envconfig',
  TEMPORAL_TLS_CLIENT_CERT_PATH: '@temporalio/envconfig',
  TEMPORAL_TLS_CLIENT_KEY_PATH: '@temporalio/envconfig',
  AWS_REGION: 'the AWS SDK for JavaScript (its STS calls for roles); core/config reads it too, for the S3 region',
  NODE_ENV: 'Node.js libraries (production mode)',
};

/** Read by the code, deliberately set by no deployment. */
const NOT_FOR_DEPLOYMENT: Record<string, string> = {
  EVOLUTION_CACHE_DIR: 'development tooling: where pinned binaries and built tools are cached',
  XDG_CACHE_HOME: 'development tooling: the OS cache folder under which that cache lives',
  EVOLUTION_STATE_DIR: 'development tooling: state of the local services of `evolution infra up`',
  EVOLUTION_NO_BUILD: 'development: run the TypeScript sources instead of dist/ (the image has no sources)',
  EVOLUTION_DEMO_KEEP_CONSOLE: 'npm run demo only',
  EVOLUTION_JUDGE_MODEL: '`evolution evaluate` only (the judge of an evaluation run), not the worker or the console',
  MODEL_SERVER_BUILD: 'set by `infra up` for the local model stand-in it starts',
  RECORD_HISTORIES_DIR: 'npm run record-histories only',
  TEMPORAL_UI_URL: 'printed by the demo from the local services',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'set by bin/evolution.js itself',
  AWS_PROFILE: 'a named profile of the shared AWS config files (workstations, CI); a deployment gives the pod a role (IRSA, Pod Identity), which the same credential chain finds',
  AWS_ENDPOINT_URL_S3: 'the standard name of S3_ENDPOINT, which the deployments set (AWS S3 itself needs neither)',
  AWS_ENDPOINT_URL: 'the standard every-service form of AWS_ENDPOINT_URL_S3; deployments set S3_ENDPOINT',
  EVOLUTION_CONSOLE_HOST: 'deployments pass the console --host',
  EVOLUTION_CONSOLE_PORT: 'deployments pass the console --port',
  EVOLUTION_CODEC_HOST: 'the codec server is run beside a Temporal UI that signs users in (docs/security.md), not by the shipped deployments',
  EVOLUTION_CODEC_PORT: 'the codec server is run beside a Temporal UI that signs users in (docs/security.md), not by the shipped deployments',
  EVOLUTION_CODEC_CORS_ORIGINS: 'the codec server is run beside a Temporal UI that signs users in (docs/security.md), not by the shipped deployments',
  EVOLUTION_CODEC_ALLOWED_HOSTS: 'the codec server is run beside a Temporal UI that signs users in (docs/security.md), not by the shipped deployments',
  EVOLUTION_CODEC_ENCODE: 'the codec server is run beside a Temporal UI that signs users in (docs/security.md), not by the shipped deployments; /encode stays off',
  EVOLUTION_CLIENT_CONNECT_TIMEOUT: 'the call deadline of platforms embedding @skill-evolution/client; the shipped processes keep the default (10 s)',
  OTEL_SDK_DISABLED: 'standard OpenTelemetry switch; tracing is off unless an endpoint is set',
  OTEL_TRACES_EXPORTER: 'standard OpenTelemetry alternative to OTEL_EXPORTER_OTLP_ENDPOINT',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'standard OpenTelemetry alternative to OTEL_EXPORTER_OTLP_ENDPOINT',
};

/** Set by the deployments ahead of the code that reads it (work of issue 30 in progress). */
const PENDING: Record<string, string> = {};

function files(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const path = join(dir, e);
    if (statSync(path).isDirectory()) return e === 'node_modules' ? [] : files(path);
    return /\.(ts|js)$/.test(e) && !e.endsWith('.d.ts') ? [path] : [];
  });
}

/** `env.NAME`, `env['NAME']`, `process.env.NAME`, `merged.NAME` in our sources, plus the config loader's names. */
function variablesTheCodeReads(): Set<string> {
  const read = new Set<string>();
  // The names parseConfig looks up, as it looks them up.
  parseConfig(new Proxy({}, { get: (_, name) => void (typeof name === 'string' && read.add(name)) }));
  const pattern = /\b(?:env|merged)(?:\.([A-Z][A-Z0-9_]+)\b|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g;
  for (const file of SOURCE_DIRS.flatMap((d) => files(join(REPO_ROOT, d)))) {
    for (const m of readFileSync(file, 'utf8').matchAll(pattern)) read.add((m[1] ?? m[2])!);
  }
  return read;
}

/** Backticked names in docs/configuration.md; `PREFIX*` documents a family. */
function documented(name: string, docs: string): boolean {
  const tokens = [...docs.matchAll(/`([A-Z][A-Z0-9_]*\*?)`/g)].map((m) => m[1]!);
  return tokens.some((t) => t === name || (t.endsWith('*') && name.startsWith(t.slice(0, -1))));
}

let setByDeployments: Set<string>;
beforeAll(() => {
  const set = new Set<string>();
  // The image.
  for (const k of Object.keys(stageEnv(parseDockerfile(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')).at(-1)!))) set.add(k);
  // docker-compose.yml: the containers built from the Dockerfile.
  const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { build?: unknown; environment?: Record<string, unknown> }>;
  };
  for (const s of Object.values(compose.services)) if (s.build) for (const k of Object.keys(s.environment ?? {})) set.add(k);
  // Kubernetes: settings, container env, and the keys of the Secrets loaded as environment.
  for (const yaml of Object.values(renderAll())) {
    for (const d of objects(yaml) as any[]) {
      if (d.kind === 'ConfigMap' && d.metadata.name === 'evolution-settings') Object.keys(d.data).forEach((k) => set.add(k));
      if (d.kind === 'Secret' && d.metadata.name.startsWith('evolution-secrets')) Object.keys(d.data ?? {}).forEach((k) => set.add(k));
      if (d.kind === 'Deployment') for (const c of d.spec.template.spec.containers) for (const e of c.env ?? []) set.add(e.name);
    }
  }
  // The production Secret evolution-secrets, created as docs/deploy.md says.
  for (const m of readFileSync(join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8').matchAll(/--from-literal=([A-Z][A-Z0-9_]+)=/g)) set.add(m[1]!);
  setByDeployments = set;
}, 30 * 60_000);

describe('environment variables: code, documentation and deployments agree', () => {
  const docs = ['docs/configuration.md'].map((f) => readFileSync(join(REPO_ROOT, f), 'utf8')).join('\n');

  it('every variable the code reads is documented in docs/configuration.md', () => {
    const missing = [...variablesTheCodeReads()].filter((v) => !documented(v, docs)).sort();
    expect(missing, 'document these in docs/configuration.md (the runtime table, or the tooling section)').toEqual([]);
  });

  it('every variable the code reads is set by the image, compose or the Kubernetes manifests, or is listed as not for deployment', () => {
    const unset = [...variablesTheCodeReads(), ...Object.keys(READ_BY_LIBRARIES)].filter((v) => !setByDeployments.has(v) && !(v in NOT_FOR_DEPLOYMENT)).sort();
    expect(unset, 'set these in docker-compose.yml and/or deploy/kubernetes (or list them in NOT_FOR_DEPLOYMENT with the reason)').toEqual([]);
  });

  it('every variable a deployment sets is read by the code or a library it uses; the exception lists hold only live entries', () => {
    const read = variablesTheCodeReads();
    const unknown = [...setByDeployments].filter((v) => !read.has(v) && !(v in READ_BY_LIBRARIES) && !(v in PENDING) && !/^OTEL_/.test(v)).sort();
    expect(unknown, 'a deployment sets a variable nothing reads (a typo, or a setting that was removed)').toEqual([]);
    expect(
      Object.keys(NOT_FOR_DEPLOYMENT).filter((v) => !read.has(v)),
      'NOT_FOR_DEPLOYMENT lists variables the code no longer reads',
    ).toEqual([]);
    expect(
      Object.keys(PENDING).filter((v) => read.has(v)),
      'the code reads these now: move them out of PENDING',
    ).toEqual([]);
  });
});
