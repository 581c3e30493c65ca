import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runtimeGraph } from '../support/import-graph';

/**
 * Every workflow instance evaluates the workflow bundle's modules afresh (module state is
 * per workflow even in the reused V8 context), so what workflows/ imports at run time is
 * paid for on every job.
 */
const ENTRY = join(ROOT, 'workflows', 'index.ts');
/** The only packages workflow code may pull into the bundle. */
const ALLOWED_PACKAGES = ['@temporalio/workflow', '@temporalio/common'];

describe('workflow bundle imports', () => {
  const graph = runtimeGraph(ENTRY);

  it('pulls in no package but the Temporal workflow runtime (no zod schemas built per workflow instance)', () => {
    const extra = [...graph.packages].filter(([pkg]) => !ALLOWED_PACKAGES.includes(pkg)).map(([pkg, via]) => `${pkg}: ${via.join(' -> ')}`);
    expect(extra).toEqual([]);
  });

  it('never goes through the core/ barrel, which re-exports every schema', () => {
    const barrels = ['core/index.ts', 'core/schemas/index.ts'].map((f) => join(ROOT, f));
    const reached = barrels.filter((b) => graph.files.has(b)).map((b) => graph.files.get(b)!.join(' -> '));
    expect(reached).toEqual([]);
  });

  it('follows the real graph (sanity: the workflows and the pure core files they use are reached)', () => {
    const reached = [...graph.files.keys()].map((f) => relative(ROOT, f));
    expect(reached).toEqual(
      expect.arrayContaining([
        'workflows/learning-job.ts',
        'workflows/session.ts',
        'workflows/approval.ts',
        'workflows/rollback.ts',
        'workflows/scope-index.ts',
        'core/publication/operations.ts',
        'core/workflow-inputs/index.ts',
      ]),
    );
  });
});
