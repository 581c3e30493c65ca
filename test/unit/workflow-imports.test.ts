import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allImports, resolveImport, ROOT, runtimeGraph } from '../support/import-graph';

/**
 * Every workflow instance evaluates the workflow bundle's modules afresh (module state is
 * per workflow even in the reused V8 context), so what workflows/ imports at run time is
 * paid for on every instance: a job's session, job, index and usage workflows each evaluate
 * what their own module reaches, and the bundle's entry loads each workflow's module only
 * inside that workflow's instances.
 */
const ENTRY = join(ROOT, 'workflows', 'index.ts');
/** The only packages workflow code may pull into the bundle. */
const ALLOWED_PACKAGES = ['@temporalio/workflow', '@temporalio/common'];
/** Workflows that validate requests and evaluator output with the zod schemas: only their own instances load them. */
const GEPA_MODULES = ['workflows/experiment.ts', 'workflows/gepa/evaluation.ts'];

const rel = (file: string) => relative(ROOT, file);
/** The module of each workflow the entry registers, loaded by its wrapper on the instance's first call. */
const workflowModules = allImports(ENTRY)
  .filter((edge) => edge.dynamic)
  .map((edge) => resolveImport(ENTRY, edge.spec)!)
  .map(rel);
const onlineModules = workflowModules.filter((m) => !GEPA_MODULES.includes(m));

describe('workflow bundle imports', () => {
  it('the entry loads every workflow lazily: evaluating it reaches no workflow module (message definitions only)', () => {
    expect(workflowModules).toEqual(
      expect.arrayContaining(['workflows/session.ts', 'workflows/learning-job.ts', 'workflows/scope-index.ts', 'workflows/scope-usage.ts', ...GEPA_MODULES]),
    );
    const eager = [...runtimeGraph(ENTRY).files.keys()].map(rel).filter((f) => f.startsWith('workflows/') && f !== 'workflows/index.ts');
    expect(eager).toEqual([]);
  });

  it("a workflow's instance evaluates no other workflow's module (they start each other by type name)", () => {
    const reached = Object.fromEntries(
      workflowModules.map((m) => [m, [...runtimeGraph(join(ROOT, m)).files.keys()].map(rel).filter((f) => f !== m && workflowModules.includes(f))]),
    );
    expect(reached).toEqual(Object.fromEntries(workflowModules.map((m) => [m, m === 'workflows/experiment.ts' ? ['workflows/gepa/evaluation.ts'] : []])));
  });

  it.each(onlineModules)('%s pulls in no package but the Temporal workflow runtime (no zod schemas built per workflow instance)', (module) => {
    const graph = runtimeGraph(join(ROOT, module));
    const extra = [...graph.packages].filter(([pkg]) => !ALLOWED_PACKAGES.includes(pkg)).map(([pkg, via]) => `${pkg}: ${via.join(' -> ')}`);
    expect(extra).toEqual([]);
  });

  it.each([ENTRY, ...onlineModules.map((m) => join(ROOT, m))].map(rel))('%s never goes through the core/ barrel, which re-exports every schema', (module) => {
    const graph = runtimeGraph(join(ROOT, module));
    const barrels = ['core/index.ts', 'core/schemas/index.ts'].map((f) => join(ROOT, f));
    const reached = barrels.filter((b) => graph.files.has(b)).map((b) => graph.files.get(b)!.join(' -> '));
    expect(reached).toEqual([]);
  });

  it('follows the real graph (sanity: the online workflows and the pure core files they use are reached)', () => {
    expect(onlineModules).toEqual(expect.arrayContaining(['workflows/approval.ts', 'workflows/rollback.ts', 'workflows/rollout.ts', 'workflows/curator.ts']));
    const reached = (m: string) => [...runtimeGraph(join(ROOT, m)).files.keys()].map(rel);
    expect(reached('workflows/rollback.ts')).toEqual(expect.arrayContaining(['core/publication/operations.ts', 'workflows/index-acks.ts']));
    expect(reached('workflows/session.ts')).toEqual(expect.arrayContaining(['core/workflow-inputs/index.ts']));
  });
});
