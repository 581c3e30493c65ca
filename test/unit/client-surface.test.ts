import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/import-graph';

/**
 * The application imports the client library's source by path (docs/architecture.md, "Why the
 * application imports client/ by path"), not the package `@skill-evolution/client`. What keeps
 * the two the same surface: every name the application takes from client/ is one that
 * client/index.ts (the package's entry) exports, so the console and the CLI use exactly what
 * platforms get, and nothing a platform cannot reach.
 */
const INDEX = join(ROOT, 'client', 'index.ts');

/** The names client/index.ts exports; it lists them one by one (an `export *` would hide what the package promises). */
function packageExports(): Set<string> {
  const source = ts.createSourceFile(INDEX, readFileSync(INDEX, 'utf8'), ts.ScriptTarget.ES2022, true);
  const names = new Set<string>();
  for (const node of source.statements) {
    if (ts.isExportDeclaration(node)) {
      if (!node.exportClause || !ts.isNamedExports(node.exportClause)) throw new Error(`client/index.ts: list the names instead of ${node.getText()}`);
      for (const e of node.exportClause.elements) names.add(e.name.text);
    } else if (ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      if (ts.isVariableStatement(node)) for (const d of node.declarationList.declarations) names.add((d.name as ts.Identifier).text);
      const name = (node as ts.Node & { name?: ts.Identifier }).name;
      if (name) names.add(name.text);
    }
  }
  return names;
}

export interface ClientImport {
  file: string;
  line: number;
  module: string;
  /** Imported names; '*' for a namespace import or a dynamic import not destructured. */
  names: string[];
}

/** Every import of a module under client/ in one file: static, re-exports, `import()` (destructured or not) and `import('…').T` types. */
export function clientImportsOf(file: string, text = readFileSync(file, 'utf8')): ClientImport[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: ClientImport[] = [];
  const add = (node: ts.Node, spec: string, names: string[]) => {
    if (!spec.startsWith('.')) return;
    const target = relative(ROOT, resolve(dirname(file), spec));
    if (target !== 'client' && !target.startsWith('client/')) return;
    out.push({ file: relative(ROOT, file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, module: target, names });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : bindings ? ['*'] : [];
      add(node, node.moduleSpecifier.text, clause?.name ? [...names, 'default'] : names);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      add(node, node.moduleSpecifier.text, clause && ts.isNamedExports(clause) ? clause.elements.map((e) => (e.propertyName ?? e.name).text) : ['*']);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      let parent: ts.Node = node.parent;
      while (ts.isAwaitExpression(parent) || ts.isParenthesizedExpression(parent)) parent = parent.parent;
      const destructured = ts.isVariableDeclaration(parent) && ts.isObjectBindingPattern(parent.name) ? parent.name : undefined;
      const names = destructured
        ? destructured.elements.map((e) => (e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName.text : ts.isIdentifier(e.name) ? e.name.text : '*'))
        : ts.isPropertyAccessExpression(parent)
          ? [parent.name.text]
          : ['*'];
      add(node, node.arguments[0].text, names);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const qualifier = node.qualifier ? (ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText()) : '*';
      add(node, node.argument.literal.text, [qualifier]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.ts$/.test(path) ? [path] : [];
  });
}

describe('what the application uses of the client library', () => {
  let layers: string[];
  beforeAll(async () => {
    const { LAYERS } = (await import(pathToFileURL(join(ROOT, 'eslint.config.mjs')).href)) as { LAYERS: Record<string, unknown> };
    layers = Object.keys(LAYERS).filter((l) => l !== 'client');
  });

  it('is only what the package exports (client/index.ts)', () => {
    const exported = packageExports();
    expect(exported.has('startLearningJob')).toBe(true);
    const imports = layers.flatMap((layer) => sources(join(ROOT, layer))).flatMap((file) => clientImportsOf(file));
    expect(imports.length).toBeGreaterThan(30); // sanity: the walk sees the console's and the CLI's imports
    const outside = imports.flatMap((i) =>
      i.names.filter((n) => !exported.has(n)).map((n) => `${i.file}:${i.line}: ${n === '*' ? 'the whole module' : n} from ${i.module} (not exported by client/index.ts)`),
    );
    expect(outside, 'export it from client/index.ts (it is then part of the package) or keep it out of client/').toEqual([]);
  });

  it('sees every form of import, so a name outside the surface cannot slip through', () => {
    const file = join(ROOT, 'console', 'example.ts');
    const found = clientImportsOf(
      file,
      [
        "import { a, b as c } from '../client/jobs';",
        "import type { T } from '../client';",
        "import * as all from '../client/learning';",
        "export { d } from '../client/rollback';",
        "const { e, f: g } = await import('../client/approvals');",
        "const mod = await import('../client/usage');",
        "let x: import('../client/metrics').GovernanceMetrics;",
        "import { z } from '../core';",
      ].join('\n'),
    );
    expect(found.map((i) => [i.module, i.names])).toEqual([
      ['client/jobs', ['a', 'b']],
      ['client', ['T']],
      ['client/learning', ['*']],
      ['client/rollback', ['d']],
      ['client/approvals', ['e', 'f']],
      ['client/usage', ['*']],
      ['client/metrics', ['GovernanceMetrics']],
    ]);
  });
});
