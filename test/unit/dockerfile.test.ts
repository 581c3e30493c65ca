import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/paths';
import { dockerignore, parseDockerfile, stageEnv, type DockerStage } from '../support/dockerfile';

// The image definition, checked statically (no Docker engine here);
// test/integration/image-build.test.ts runs its build steps and starts what it ships.
const stages = parseDockerfile(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'));
const byName = (name: string) => stages.find((s) => s.name === name)!;
const runtime = stages.at(-1)!;
const runs = (stage: DockerStage) => stage.steps.filter((s) => s.keyword === 'RUN').map((s) => s.text.replace(/\s+/g, ' '));
const last = (stage: DockerStage, keyword: string) => stage.steps.filter((s) => s.keyword === keyword).at(-1);

describe('Dockerfile', () => {
  it('is multi-stage: production dependencies, the build, and a runtime stage on a slim Node image', () => {
    expect(stages.map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
    for (const s of stages) expect(s.image).toMatch(/^node:[\d.]+-[a-z]+-slim$/);
    expect(runs(byName('deps'))).toEqual(['npm ci --omit=dev --no-audit --no-fund']);
    expect(runs(byName('build'))).toEqual(['npm ci --no-audit --no-fund', 'npm run build']);
  });

  it('copies into the runtime stage only what runs: production node_modules, dist/, the CLI entry and its helpers', () => {
    const copies = runtime.steps.filter((s) => s.keyword === 'COPY');
    expect(copies.filter((c) => c.flags.from).map((c) => `${c.flags.from}:${c.args.join(' ')}`)).toEqual(['deps:/app/node_modules ./node_modules', 'build:/app/dist ./dist']);
    const fromContext = copies.filter((c) => !c.flags.from).flatMap((c) => c.args.slice(0, -1));
    expect(fromContext).not.toContain('.');
    expect(fromContext.filter((p) => /^(core|storage|activities|workflows|workers|client|console|cli|infra|test|node_modules|dist)(\/|$)/.test(p))).toEqual([]);
    // Every context path exists and survives .dockerignore (else `docker build` fails at COPY).
    const ignored = dockerignore(REPO_ROOT);
    for (const stage of stages) {
      for (const c of stage.steps.filter((s) => s.keyword === 'COPY' && !s.flags.from)) {
        for (const src of c.args.slice(0, -1)) {
          expect(existsSync(join(REPO_ROOT, src)), src).toBe(true);
          expect(ignored(src), `${src} is excluded by .dockerignore`).toBe(false);
        }
      }
    }
  });

  it('runs as a non-root user, under tini as PID 1 (never npx), with the node command', () => {
    expect(runs(runtime)).toEqual(['apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*']);
    const user = last(runtime, 'USER')!.args[0]!;
    expect(user).toMatch(/^\d+(:\d+)?$/); // numeric, so Kubernetes' runAsNonRoot can check it
    expect(Number(user.split(':')[0])).toBeGreaterThan(0);
    const order = runtime.steps.map((s) => s.keyword);
    expect(order.lastIndexOf('USER')).toBeLessThan(order.indexOf('CMD'));
    expect(last(runtime, 'ENTRYPOINT')!.exec).toEqual(['/usr/bin/tini', '--']);
    const cmd = last(runtime, 'CMD')!.exec!;
    expect(cmd).toEqual(['node', 'bin/evolution.js', 'worker']);
    expect(JSON.stringify(stages)).not.toMatch(/"npx"/);
  });

  it('has a HEALTHCHECK on the ops port /healthz, which the image sets and exposes', () => {
    const env = stageEnv(runtime);
    expect(env).toMatchObject({ EVOLUTION_METRICS_PORT: '9464', EVOLUTION_IGNORE_LOCAL_INFRA: '1', NODE_ENV: 'production' });
    expect(last(runtime, 'EXPOSE')!.args).toContain(env.EVOLUTION_METRICS_PORT);
    const health = last(runtime, 'HEALTHCHECK')!;
    expect(health.exec?.slice(0, 2)).toEqual(['node', '-e']);
    expect(health.exec![2]).toContain('process.env.EVOLUTION_METRICS_PORT || 9464');
    expect(health.exec![2]).toContain('/healthz');
    expect(health.flags).toMatchObject({ interval: expect.any(String), 'start-period': expect.any(String) });
  });
});

describe('dockerignore (as Docker reads it)', () => {
  it('anchors patterns at the context root and excludes what is inside a matched folder', () => {
    const ignored = dockerignore(REPO_ROOT);
    expect(ignored('node_modules')).toBe(true);
    expect(ignored('node_modules/zod/package.json')).toBe(true);
    expect(ignored('dist/workflow-bundle.js')).toBe(true);
    expect(ignored('npm-debug.log')).toBe(true);
    expect(ignored('logs/x.log')).toBe(false); // `*.log` is anchored at the root, as in Docker
    expect(ignored('package.json')).toBe(false);
    expect(ignored('client/cli/main.ts')).toBe(false);
  });
});
