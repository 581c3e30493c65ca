import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { allImports, resolveImport, ROOT } from '../support/import-graph';

/**
 * The layers (eslint.config.mjs LAYERS, docs/architecture.md): each top-level folder imports
 * only the layers below it. ESLint checks the specifiers as written; this test resolves every
 * import of every file (type-only, dynamic import() and require() included) and checks each
 * edge that crosses a folder, so nothing climbs back up however it is written.
 */
type Allowed = string | { layer: string; typesOnly: true };
let LAYERS: Record<string, Allowed[]>;
beforeAll(async () => {
  ({ LAYERS } = (await import(pathToFileURL(join(ROOT, 'eslint.config.mjs')).href)) as { LAYERS: Record<string, Allowed[]> });
});

const layerOf = (file: string) => relative(ROOT, file).split('/')[0]!;

/** Why an import from `from` to `to` breaks the layers, or undefined when it does not. */
function violation(from: string, to: string, typeOnly: boolean): string | undefined {
  const [a, b] = [layerOf(from), layerOf(to)];
  if (a === b || !(a in LAYERS)) return undefined;
  const rule = LAYERS[a]!.find((x) => (typeof x === 'string' ? x : x.layer) === b);
  if (rule === undefined) return `${relative(ROOT, from)} -> ${relative(ROOT, to)}: ${a}/ does not import ${b}/`;
  if (typeof rule !== 'string' && rule.typesOnly && !typeOnly) return `${relative(ROOT, from)} -> ${relative(ROOT, to)}: ${a}/ imports ${b}/ for types only`;
  return undefined;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.ts$/.test(path) ? [path] : [];
  });
}

describe('layers', () => {
  it('every import of the application goes downward', () => {
    const files = Object.keys(LAYERS).flatMap((layer) => sources(join(ROOT, layer)));
    expect(files.length).toBeGreaterThan(250);
    const problems: string[] = [];
    let crossing = 0;
    for (const file of files) {
      for (const edge of allImports(file)) {
        const target = resolveImport(file, edge.spec);
        if (!target) continue;
        if (layerOf(target) !== layerOf(file)) crossing++;
        const why = violation(file, target, edge.typeOnly);
        if (why) problems.push(why);
      }
    }
    expect(problems).toEqual([]);
    expect(crossing).toBeGreaterThan(300); // sanity: the walk sees the real cross-layer imports
  });

  it('the check refuses a deliberately wrong edge of each kind', () => {
    const at = (p: string) => join(ROOT, p);
    expect(violation(at('storage/x.ts'), at('client/learning.ts'), false)).toMatch(/storage\/ does not import client\//);
    expect(violation(at('core/x.ts'), at('storage/index.ts'), true)).toMatch(/core\/ does not import storage\//);
    expect(violation(at('client/x.ts'), at('workflows/index.ts'), true)).toMatch(/client\/ does not import workflows\//);
    expect(violation(at('runtime/config.ts'), at('infra/env.ts'), false)).toMatch(/runtime\/ does not import infra\//);
    expect(violation(at('workers/worker.ts'), at('scripts/build.ts'), false)).toMatch(/workers\/ does not import scripts\//);
    expect(violation(at('workflows/x.ts'), at('activities/index.ts'), false)).toMatch(/for types only/);
    expect(violation(at('workflows/x.ts'), at('activities/index.ts'), true)).toBeUndefined();
    expect(violation(at('cli/main.ts'), at('workers/main.ts'), false)).toBeUndefined();
  });

  it('lint fails a deliberately wrong import, as written in a file of each layer', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const lint = async (filePath: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
      return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
    };
    expect(await lint('storage/example.ts', "export { importUnmanagedSkill } from '../client/import-skill';\n")).toEqual([expect.stringMatching(/storage\/ imports only core/)]);
    expect(await lint('client/nested/example.ts', "export { loadConfig } from '../../runtime/config';\n")).toEqual([expect.stringMatching(/client\/ imports only core, storage/)]);
    expect(await lint('runtime/example.ts', "export { infraEnv } from '../infra/env';\n")).toEqual([expect.stringMatching(/runtime\/ imports only core, storage/)]);
    expect(await lint('workers/example.ts', "export { ensureBuild } from '../scripts/build';\n")).toEqual([expect.stringMatching(/workers\/ imports only/)]);
    expect(await lint('workflows/example.ts', "import { createActivities } from '../activities';\nexport const a = createActivities;\n")).toEqual([
      expect.stringMatching(/workflows\/ imports activities\/ for types only/),
    ]);
    expect(await lint('workflows/example.ts', "import type { Activities } from '../activities';\nexport type A = Activities;\n")).toEqual([]);
    expect(await lint('core/example.ts', "export { createSkillStore } from '../storage';\n")).toEqual([expect.stringMatching(/core\/ imports nothing of ours/)]);
    expect(await lint('cli/example.ts', "export { runMainWorker } from '../workers/main';\nexport { infraEnv } from '../infra/env';\n")).toEqual([]);
  });
});
