import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as failures from '../../core/failure-types';
import { scopeQuery, SEARCH_ATTRIBUTE_NAMES, searchAttributes } from '../../core/search-attributes';
import { ROOT } from '../support/import-graph';

/**
 * One vocabulary: failure types and search-attribute names are spelled once, in
 * core/failure-types.ts and core/search-attributes.ts; every other file of the application
 * refers to the constants (a literal elsewhere is how the two sides drift apart).
 */
const APPLICATION = ['core', 'storage', 'activities', 'client', 'workflows', 'runtime', 'workers', 'console', 'cli', 'infra', 'evaluation'];
const HOMES = ['core/failure-types.ts', 'core/search-attributes.ts'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // dist/ holds build output (the client package's declarations), not sources
    if (name === 'dist' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const FAILURE_TYPES = [
  ...Object.values(failures.NON_RETRYABLE),
  failures.MALFORMED_MODEL_ANSWER,
  failures.MODEL_ANSWER_FAILURE,
  failures.INVALID_WORKFLOW_INPUT,
  failures.INVALID_EVALUATOR_INPUT,
  failures.EVALUATOR_CONTRACT_ERROR,
  failures.ACTIVITY_NOT_REGISTERED,
];

describe('one vocabulary', () => {
  it('no file but core/failure-types.ts and core/search-attributes.ts spells a failure type or a search attribute as a string', () => {
    const words = [...FAILURE_TYPES, ...Object.values(SEARCH_ATTRIBUTE_NAMES)];
    // A failure type quoted in code (the error classes share some of their names); a search attribute anywhere in code:
    // quoted, an object key, inside a template (comments may name them).
    const spelled = new RegExp(`['"\`](${FAILURE_TYPES.join('|')})\\b|\\b(${Object.values(SEARCH_ATTRIBUTE_NAMES).join('|')})\\b`);
    const isComment = (line: string) => /^\s*(\*|\/\*|\/\/)/.test(line);
    const offenders = APPLICATION.flatMap((d) => sources(join(ROOT, d)))
      .map((f) => relative(ROOT, f))
      .filter((f) => !HOMES.includes(f))
      .filter((f) =>
        readFileSync(join(ROOT, f), 'utf8')
          .split('\n')
          .some((line) => spelled.test(line) && !isComment(line) && !/override name = /.test(line)),
      )
      .sort();
    expect(offenders).toEqual([]);
    expect(words.length).toBeGreaterThan(15);
  });

  it('search attributes of a start, and the visibility query of a scope', () => {
    expect(searchAttributes({ kind: 'approval', scopeKey: 'apps/shop', skillId: 's', revisionId: 'r' })).toEqual({
      EvolutionKind: ['approval'],
      EvolutionScopeKey: ['apps/shop'],
      EvolutionSkillId: ['s'],
      EvolutionRevisionId: ['r'],
    });
    expect(searchAttributes({ kind: 'experiment', skillId: undefined })).toEqual({ EvolutionKind: ['experiment'] });
    expect(scopeQuery('apps/shop', 'learning-job')).toBe("EvolutionScopeKey = 'apps/shop' AND EvolutionKind = 'learning-job'");
    expect(scopeQuery("users/o'brien/x")).toBe("EvolutionScopeKey = 'users/o\\'brien/x'");
  });
});
