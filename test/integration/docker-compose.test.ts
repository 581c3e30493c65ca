import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { composeCommand } from '../../infra/compose-validator';
import { REPO_ROOT } from '../../infra/paths';

describe('docker-compose.yml', () => {
  it('is valid for `compose config` and wires Temporal, UI, MinIO and our workers', () => {
    const [cmd, ...pre] = composeCommand();
    const out = execFileSync(cmd, [...pre, '-f', join(REPO_ROOT, 'docker-compose.yml'), 'config'], { encoding: 'utf8', env: { ...process.env, OPENAI_API_KEY: '' } });
    const resolved = parse(out) as { services: Record<string, { environment?: Record<string, string>; image?: string; build?: unknown }> };
    expect(Object.keys(resolved.services).sort()).toEqual(
      ['console', 'evaluator', 'minio', 'minio-init', 'model', 'postgresql', 'prometheus', 'temporal', 'temporal-search-attributes', 'temporal-ui', 'worker'].sort(),
    );
    const worker = resolved.services.worker!;
    expect(worker.build).toBeDefined();
    expect(worker.environment).toMatchObject({ TEMPORAL_ADDRESS: 'temporal:7233', S3_ENDPOINT: 'http://minio:9000', S3_BUCKET: 'evolution' });
    expect(resolved.services.console!.environment).toMatchObject({ TEMPORAL_ADDRESS: 'temporal:7233', EVOLUTION_CONSOLE_USERS: '/config/console-users.json' });
    expect(resolved.services.temporal!.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
    // Metrics and health for Prometheus and orchestrators, on both kinds of worker.
    expect(worker.environment).toMatchObject({ EVOLUTION_METRICS_PORT: '9464' });
    expect(resolved.services.evaluator!.environment).toMatchObject({ EVOLUTION_METRICS_PORT: '9464' });
    expect(resolved.services.prometheus!.image).toMatch(/^prom\/prometheus:/);
  }, 300_000);
});
