import { spawnSync } from 'node:child_process';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/paths';

/** `npm run lint` as part of `npm test`, plus proof that the determinism rule bites where it should. */
const eslint = new ESLint({ cwd: REPO_ROOT });

const SNIPPET = [
  "import { readFileSync } from 'node:fs';",
  "import path from 'path';",
  'export const a = Date.now() + Math.random();',
  'export const b = process.env.X;',
  'setTimeout(() => undefined, 1);',
  'export const c = readFileSync(path.join("x"));',
  '',
].join('\n');

async function restricted(filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(SNIPPET, { filePath: `${REPO_ROOT}/${filePath}` });
  return result!.messages.filter((m) => m.ruleId?.startsWith('no-restricted')).map((m) => `${m.line}:${m.ruleId}`);
}

describe('lint', () => {
  it('keeps Node built-ins, clocks, randomness, timers and process out of workflows/ and core/', async () => {
    const expected = [
      '1:no-restricted-imports',
      '2:no-restricted-imports',
      '3:no-restricted-properties',
      '3:no-restricted-properties',
      '4:no-restricted-globals',
      '5:no-restricted-globals',
    ];
    expect(await restricted('workflows/example.ts')).toEqual(expected);
    expect(await restricted('core/gepa/example.ts')).toEqual(expected);
    expect(await restricted('activities/example.ts')).toEqual([]);
  });

  // The client library reaches workflows through core/workflow-api, never workflows/ (test/unit/layers.test.ts has every layer).
  it('keeps imports downward: activities never import workflows/, the client never imports workflows/', async () => {
    const upward = async (filePath: string, imports: string[]) => {
      const [result] = await eslint.lintText(`${imports.map((spec, i) => `export * as m${i} from '${spec}';`).join('\n')}\n`, { filePath: `${REPO_ROOT}/${filePath}` });
      return result!.messages.filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.line);
    };
    expect(
      await upward('activities/gepa/example.ts', ['../../core/gepa/ids', '../../workflows', '../../workflows/gepa/ids', '../../client/approvals', '../../workers/main']),
    ).toEqual([2, 3, 4, 5]);
    expect(await upward('client/example.ts', ['../core/gepa/ids', '../workflows', '../workflows/gepa/ids', '../storage'])).toEqual([2, 3]);
    expect(await upward('workers/example.ts', ['../workflows/gepa/ids'])).toEqual([]);
  });

  it('the whole tree has no lint errors', async () => {
    const results = await eslint.lintFiles(['.']);
    const errors = results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath.slice(REPO_ROOT.length + 1)}:${m.line} ${m.ruleId}: ${m.message}`));
    expect(errors).toEqual([]);
  }, 300_000);

  it('the whole tree is formatted as Prettier says (the other half of npm run lint)', () => {
    const run = spawnSync(process.execPath, [require.resolve('prettier/bin/prettier.cjs'), '--check', '.', '--log-level', 'warn'], { cwd: REPO_ROOT, encoding: 'utf8' });
    const unformatted = `${run.stdout}${run.stderr}`.split('\n').filter((l) => l.startsWith('[warn] ') && !l.includes('Code style issues'));
    expect(unformatted).toEqual([]);
    expect(run.status).toBe(0);
  }, 300_000);
});
