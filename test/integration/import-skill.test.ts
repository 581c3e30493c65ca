import { describe, expect, it } from 'vitest';
import { importUnmanagedSkill } from '../../client/import-skill';
import { renderSkillMarkdown, scopeKey as scopeKeyOf, type Scope } from '../../core';
import { InputError, StateError } from '../../core/errors';
import { importSkillWorkflowId, scopeIndexWorkflowId } from '../../core/workflow-ids';
import { seedManagedSkill } from '../support/gepa';
import { uniqueName } from '../support/infra';
import { useMainWorker } from '../support/worker';

// import-skill publishes like every other operation: the import workflow has the publisher
// move the pointer, and the scope's index workflow — the index's one writer — adds it.
const fx = useMainWorker();

const markdown = (name: string, step: string) =>
  renderSkillMarkdown({ name, description: `${name}, hand-written`, when_to_use: 'In the import test.', steps: [step], pitfalls: [] });

describe('import-skill', () => {
  it('runs the import workflow, and the index workflow has added the skill when it returns', async () => {
    const scope: Scope = { mode: 'app', app: uniqueName('import') };
    const key = scopeKeyOf(scope);
    const result = await importUnmanagedSkill(fx.w, scope, markdown('deploy-checklist', 'Check the deploy.'));
    expect(result).toMatchObject({ scopeKey: key, skillId: 'deploy-checklist', name: 'deploy-checklist', applied: true });
    expect(result.revisionId).toMatch(/^external-[0-9a-f]{24}$/);

    // Read-your-writes: the index already lists it, unmanaged, at the pointer's seq.
    const pointer = (await fx.store.readActive(key, result.skillId))!.pointer;
    expect(pointer).toMatchObject({ managed: false, revisionId: result.revisionId });
    const index = (await fx.store.readScopeIndex(key))!;
    expect(index.notModified).toBeFalsy();
    const entry = !index.notModified ? index.index.skills.find((s) => s.skillId === result.skillId) : undefined;
    expect(entry).toMatchObject({ revisionId: result.revisionId, managed: false, seq: pointer.seq });

    // Through Temporal: the import workflow (its id is the operation's) and the scope's index workflow.
    const digest = result.revisionId.slice('external-'.length);
    const run = await fx.w.client.workflow.getHandle(importSkillWorkflowId(key, result.skillId, digest)).describe();
    expect(run.status.name).toBe('COMPLETED');
    expect(run.type).toBe('importSkillWorkflow');
    expect(run.searchAttributes.EvolutionKind).toEqual(['import']);
    const indexRun = await fx.w.client.workflow.getHandle(scopeIndexWorkflowId(key)).describe();
    expect(indexRun.type).toBe('scopeIndexWorkflow');
  });

  it('the same file again is the same operation: nothing moves', async () => {
    const scope: Scope = { mode: 'app', app: uniqueName('import-twice') };
    const file = markdown('release-notes', 'Write the notes.');
    const first = await importUnmanagedSkill(fx.w, scope, file);
    const before = await fx.store.readActive(first.scopeKey, first.skillId);
    const second = await importUnmanagedSkill(fx.w, scope, file);
    expect(second).toMatchObject({ revisionId: first.revisionId, auditId: first.auditId });
    const after = await fx.store.readActive(first.scopeKey, first.skillId);
    expect(after?.etag).toBe(before?.etag);
  });

  it('refuses to take a managed skill out of governance, and a file that is not a SKILL.md, with clear errors', async () => {
    const managed = await seedManagedSkill(fx.store, { name: 'weather-report' });
    const err = await importUnmanagedSkill(fx.w, managed.scope, markdown('weather-report', 'Overwrite it.')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StateError);
    expect((err as Error).message).toMatch(/skill weather-report is managed by evolution in .*an import would take it out of governance/);
    expect((await fx.store.readActive(managed.scopeKey, managed.skillId))?.pointer).toMatchObject({ managed: true, revisionId: managed.revisionId });

    await expect(importUnmanagedSkill(fx.w, managed.scope, 'no frontmatter here')).rejects.toThrow(InputError);
    await expect(importUnmanagedSkill(fx.w, managed.scope, 'no frontmatter here')).rejects.toThrow(/not a valid SKILL\.md/);
  });
});
