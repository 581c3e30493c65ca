import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The modules a file loads when it is loaded: static imports and re-exports, followed
 * through local files. Type-only imports are erased by the compiler and the bundler, so
 * they are skipped; a value import used only as a type still counts (write `import type`).
 * Dynamic `import()` is not followed: that is how code defers a module until it is used.
 */
export const ROOT = resolve(__dirname, '..', '..');

export function runtimeSpecifiers(file: string): string[] {
  return runtimeSpecifiersOf(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false));
}

function runtimeSpecifiersOf(source: ts.SourceFile): string[] {
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

/** Local files and packages `entry` imports at load time (static imports), each with one path that reaches it. */
export function runtimeGraph(entry: string): { files: Map<string, string[]>; packages: Map<string, string[]> } {
  const files = new Map<string, string[]>([[entry, [relative(ROOT, entry)]]]);
  const packages = new Map<string, string[]>();
  const queue = [entry];
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

/** One import of a file: its specifier, whether only types are imported, whether it is a dynamic import() or require(). */
export interface ImportEdge {
  spec: string;
  typeOnly: boolean;
  dynamic: boolean;
}

/** Every import of a file, type-only and dynamic ones included (with a string-literal specifier). */
export function allImports(file: string): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const runtime = new Set(runtimeSpecifiersOf(source));
  const out: ImportEdge[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text;
      out.push({ spec, typeOnly: !runtime.has(spec), dynamic: false });
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (isImport || isRequire) out.push({ spec: (node.arguments[0] as ts.StringLiteral).text, typeOnly: false, dynamic: true });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ spec: node.argument.literal.text, typeOnly: true, dynamic: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The local file a relative specifier names (undefined for a package or a file that is not TypeScript). */
export function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts'), base]) if (existsSync(candidate) && !candidate.endsWith('/')) return candidate;
  return undefined;
}
