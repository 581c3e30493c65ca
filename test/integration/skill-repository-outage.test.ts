import { beforeAll, describe, expect, it } from 'vitest';
import type { SkillStore } from '../../storage';
import { ServiceUnavailableError } from '../../core/errors';
import { importUnmanagedSkill } from '../../client/import-skill';
import { SkillLoadTool } from '../../client/skill-load-tool';
import { SkillRepository } from '../../client/skill-repository';
import { infraUp, readState } from '../../infra';
import type { Scope } from '../../core';
import { crashService, uniqueName } from '../support/infra';
import { useMainWorker } from '../support/worker';

// Agents keep working while S3 is down: the real SeaweedFS is killed and restarted
// (same ports, same data) under a repository that is in use. The skills are imported
// through the import workflow (the main worker) before the outage.
const fx = useMainWorker();
let store: SkillStore;

const skillMarkdown = (name: string, step: string) =>
  `---\nname: ${name}\ndescription: ${name} for the outage test\n---\n\n## When to use\n\nIn the outage test.\n\n## Steps\n\n1. ${step}\n`;

beforeAll(() => {
  store = fx.store;
});

describe('SkillRepository during an S3 outage', () => {
  it('serves the last good index and loaded bodies, answers the model clearly for the rest, and recovers by itself', async () => {
    const scope: Scope = { mode: 'app', app: uniqueName('outage') };
    await importUnmanagedSkill(fx.w, scope, skillMarkdown('loaded-before', 'Step one: already in the cache.'));
    await importUnmanagedSkill(fx.w, scope, skillMarkdown('never-loaded', 'Step one: only in S3.'));
    const repo = new SkillRepository(store, scope);
    const tool = new SkillLoadTool(repo);
    expect(await tool.handle('{"name":"loaded-before"}')).toContain('already in the cache');
    expect(repo.freshness()).toMatchObject({ stale: false });
    const endpointBefore = readState().services.s3!.endpoint;

    await crashService('s3');
    try {
      expect(await repo.refresh()).toBe(false);
      const during = repo.freshness();
      expect(during.stale).toBe(true);
      expect(during.ageMs).toBeGreaterThanOrEqual(0);
      expect(during.lastError).toMatch(/ECONNREFUSED|socket|connect/i);
      expect((await repo.list()).map((s) => s.name).sort()).toEqual(['loaded-before', 'never-loaded']);
      expect(await tool.handle('{"name":"loaded-before"}')).toContain('already in the cache');
      const answer = await tool.handle('{"name":"never-loaded"}');
      expect(answer).toMatch(/^error: skill "never-loaded" is temporarily unavailable/);
      expect(answer).not.toMatch(/ECONNREFUSED/);
      // A repository that never reached S3 has nothing to serve: one clear line, not a raw socket error.
      const cold = new SkillRepository(store, scope);
      const err = await cold.list().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect((err as Error).message).toMatch(
        /^S3 at http:\/\/127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\): run `npx evolution infra up` for the local services, or set S3_ENDPOINT to where it runs$/,
      );
      expect((err as Error).message).not.toContain('\n');
      expect((await new SkillLoadTool(cold).definition()).function.description).toContain('temporarily unavailable');
    } finally {
      await infraUp({ only: ['s3'] });
    }

    // Back on the same port with the same data: the same repository recovers on its own.
    expect(readState().services.s3!.endpoint).toBe(endpointBefore);
    expect(await tool.handle('{"name":"never-loaded"}')).toContain('only in S3');
    await repo.refresh();
    expect(repo.freshness()).toMatchObject({ stale: false });
    expect(repo.freshness().lastError).toBeUndefined();
  });
});
