import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS } from '../../cli/commands';
import { composeCommand } from '../../infra/compose-validator';
import { PINNED_BINARIES } from '../../infra/binaries';
import { REPO_ROOT } from '../../infra/paths';
import { composeDurationSeconds, RETIRED_IMAGES, ROLE_COMMANDS, workerDrainSeconds } from '../support/deployment';

interface Service {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
  volumes?: string[];
}

/**
 * `compose config` of docker-compose.yml (Docker's own parser and schema; there is no Docker
 * engine here, so nothing is pulled or started), with the settings a host may override unset:
 * what `docker compose up` runs by default.
 */
function resolvedCompose(): Record<string, Service> {
  const [cmd, ...pre] = composeCommand();
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TEMPORAL|EVOLUTION|S3|OPENAI|OTEL)_/.test(k)));
  const out = execFileSync(cmd!, [...pre, '-f', join(REPO_ROOT, 'docker-compose.yml'), 'config'], { encoding: 'utf8', env });
  return (parse(out) as { services: Record<string, Service> }).services;
}

describe('docker-compose.yml', () => {
  let services: Record<string, Service>;
  const svc = (name: string) => services[name] ?? expect.unreachable(`no service ${name}`);
  beforeAll(() => {
    services = resolvedCompose();
  }, 300_000); // the first run may install Debian's docker-compose

  it('is valid for `compose config` and has the production shape', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['console', 'evaluator', 'model', 'postgresql', 'prometheus', 's3', 'temporal', 'temporal-namespace', 'temporal-schema', 'temporal-ui', 'worker'].sort(),
    );
  });

  it('uses images published today, each pinned to a version: no MinIO, no deprecated auto-setup', () => {
    const images = Object.values(services).flatMap((s) => (s.image ? [s.image] : []));
    for (const image of images) {
      expect(image, image).toMatch(/^[a-z0-9./-]+:[A-Za-z0-9._-]+$/);
      expect(image.endsWith(':latest'), image).toBe(false);
      for (const retired of RETIRED_IMAGES) expect(image, image).not.toMatch(retired);
    }
    // S3 is SeaweedFS, the version local development and the tests run.
    expect(svc('s3').image).toBe(`chrislusf/seaweedfs:${PINNED_BINARIES.weed.version}`);
    // Server and admin tools of one release.
    const serverVersion = svc('temporal').image!.replace(/^temporalio\/server:/, '');
    expect(svc('temporal-schema').image).toBe(`temporalio/admin-tools:${serverVersion}`);
    expect(svc('temporal-namespace').image).toBe(`temporalio/admin-tools:${serverVersion}`);
  });

  it('sets up the Temporal schema explicitly with temporal-sql-tool before the server starts, then the namespace and search attributes', () => {
    expect(svc('temporal-schema').depends_on).toEqual({ postgresql: { condition: 'service_healthy' } });
    expect(svc('temporal').depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    expect(svc('temporal-namespace').depends_on).toEqual({ temporal: { condition: 'service_healthy' } });
    const schema = readFileSync(join(REPO_ROOT, 'deploy/compose/temporal-schema.sh'), 'utf8');
    for (const step of ['create', 'setup-schema -v 0.0', 'update-schema -d "$dir"']) expect(schema).toContain(`tool ${step}`);
    expect(schema).toContain('for db in temporal temporal_visibility');
    expect(svc('temporal').environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql', DYNAMIC_CONFIG_FILE_PATH: expect.any(String) });
    // Every file mounted from deploy/ exists (the console users file is the operator's).
    const mounted = Object.values(services).flatMap((s) => (s.volumes ?? []).map((v) => v.split(':')[0]!).filter((host) => host.startsWith(join(REPO_ROOT, 'deploy'))));
    expect(mounted.length).toBeGreaterThanOrEqual(3);
    for (const host of mounted) expect(existsSync(host), host).toBe(true);
  });

  it('runs worker, evaluator and console from the Dockerfile with node (no npx), each a real CLI role', () => {
    for (const [service, role] of Object.entries(ROLE_COMMANDS)) {
      const s = svc(service);
      expect(s.build, service).toBeDefined();
      const command = s.command as string[];
      expect(command.slice(0, 3), service).toEqual(['node', 'bin/evolution.js', role]);
      expect(COMMANDS[role], `evolution ${role}`).toBeDefined();
    }
    // The model stand-in runs compiled from dist/ (the image has no TypeScript sources).
    const model = svc('model').command as string[];
    expect(model.slice(0, 2)).toEqual(['node', 'dist/infra/model-server/main.js']);
    expect(existsSync(join(REPO_ROOT, 'infra/model-server/main.ts'))).toBe(true);
    expect(JSON.stringify(services)).not.toMatch(/"npx"/);
  });

  it('gives workers longer than their SIGTERM drain before Docker kills them, and waits on /readyz', () => {
    const drain = workerDrainSeconds();
    for (const name of ['worker', 'evaluator']) {
      const s = svc(name);
      expect(composeDurationSeconds(s.stop_grace_period ?? '10s'), `${name} stop_grace_period`).toBeGreaterThan(drain);
      expect(s.environment?.EVOLUTION_METRICS_PORT).toBe('9464');
      expect(s.healthcheck?.test.join(' ')).toContain('http://127.0.0.1:9464/readyz');
    }
  });

  it('never promotes a held revision by itself: no approval timeout by default, and an expiry rejects', () => {
    for (const name of ['worker', 'evaluator', 'console']) {
      expect(svc(name).environment, name).toMatchObject({ EVOLUTION_APPROVAL_TIMEOUT: 'none', EVOLUTION_APPROVAL_EXPIRY_ACTION: 'reject', EVOLUTION_HUMAN_GATE: 'create_only' });
    }
  });

  it('wires every application container to Temporal, SeaweedFS S3 and the model, with its console users file', () => {
    for (const name of Object.keys(ROLE_COMMANDS)) {
      expect(svc(name).environment, name).toMatchObject({
        TEMPORAL_ADDRESS: 'temporal:7233',
        S3_ENDPOINT: 'http://s3:8333',
        S3_BUCKET: 'evolution',
        S3_FORCE_PATH_STYLE: 'true',
        OPENAI_BASE_URL: 'http://model:8787/v1',
        EVOLUTION_IGNORE_LOCAL_INFRA: '1',
      });
    }
    expect(svc('console').environment).toMatchObject({ EVOLUTION_CONSOLE_USERS: '/config/console-users.json' });
    expect((svc('s3').command as string[]).join(' ')).toContain('-bucket="$$S3_BUCKET"');
    // Prometheus scrapes the workers' ops port on every replica.
    const prometheus = parse(readFileSync(join(REPO_ROOT, 'deploy/prometheus.yml'), 'utf8')) as { scrape_configs: { dns_sd_configs: { names: string[]; port: number }[] }[] };
    const targets = prometheus.scrape_configs.flatMap((c) => c.dns_sd_configs.map((d) => `${d.names.join(',')}:${d.port}`));
    expect(targets.sort()).toEqual(['evaluator:9464', 'worker:9464']);
  });
});
