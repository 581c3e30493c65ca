import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every workflow instance evaluates the workflow bundle's modules afresh (module state is
 * per workflow even in the reused V8 context), so what workflows/ imports at run time is
 * paid for on every job. Type-only imports are erased by the bundler; everything else is
 * followed here. Conservative: a value import used only as a type still counts (write
 * `import type` instead).
 */
const ROOT = resolve(__dirname, '..', '..');
const ENTRY = join(ROOT, 'workflows', 'index.ts');
/** The only packages workflow code may pull into the bundle. */
const ALLOWED_PACKAGES = ['@temporalio/workflow', '@temporalio/common'];

function runtimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const out: string[] = [];
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      const onlyTypeSpecifiers = !clause?.name && bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      if (onlyTypeSpecifiers) continue;
      out.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      if (node.isTypeOnly) continue;
      const clause = node.exportClause;
      if (clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)) continue;
      out.push((node.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out;
}

function resolveLocal(from: string, spec: string): string {
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  throw new Error(`cannot resolve ${spec} from ${relative(ROOT, from)}`);
}

/** Local files and packages reached from the workflow entry, each with one path that reaches it. */
function runtimeGraph(): { files: Map<string, string[]>; packages: Map<string, string[]> } {
  const files = new Map<string, string[]>([[ENTRY, [relative(ROOT, ENTRY)]]]);
  const packages = new Map<string, string[]>();
  const queue = [ENTRY];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const via = files.get(file)!;
    for (const spec of runtimeSpecifiers(file)) {
      if (spec.startsWith('.')) {
        const target = resolveLocal(file, spec);
        if (!files.has(target)) {
          files.set(target, [...via, relative(ROOT, target)]);
          queue.push(target);
        }
      } else {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (!packages.has(pkg)) packages.set(pkg, [...via, spec]);
      }
    }
  }
  return { files, packages };
}

describe('workflow bundle imports', () => {
  const graph = runtimeGraph();

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
