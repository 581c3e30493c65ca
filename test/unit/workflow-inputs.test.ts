import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkApprovalInput,
  checkEvaluationBatchInput,
  checkExperimentInput,
  checkImportSkillInput,
  checkLearningJobInput,
  checkRollbackInput,
  checkSessionInput,
  describeValue,
} from '../../core/workflow-inputs';
import { VALID_BATCH, VALID_SEGMENT } from '../support/workflow-inputs';

const segment = VALID_SEGMENT;
const batch = VALID_BATCH;

describe('workflow input checks (plain functions run first by every workflow)', () => {
  it('describes hostile values for messages', () => {
    expect([undefined, null, [], {}, Number.NaN, Infinity, 'x', '', 3].map(describeValue)).toEqual([
      'missing',
      'null',
      'an array',
      'an object',
      'a number (NaN)',
      'a number (Infinity)',
      'a string',
      'an empty string',
      'a number',
    ]);
  });

  it('accepts well-formed inputs', () => {
    expect(checkSessionInput(undefined)).toEqual([]);
    expect(checkSessionInput({ queue: [segment], seen: ['a'], idleTimeoutMs: 1000 })).toEqual([]);
    expect(checkLearningJobInput({ segment })).toEqual([]);
    expect(checkLearningJobInput({ segment, indexedBefore: [{ skillId: 's', seq: 2 }] })).toEqual([]);
    expect(checkSessionInput({ indexedBefore: [] })).toEqual([]);
    expect(checkLearningJobInput({ segment: { ...segment, scopeMode: 'user', scopeKey: 'users/app/u', outcome: { status: 'success' } } })).toEqual([]);
    expect(checkApprovalInput({ revision: { scopeKey: 'apps/a', skillId: 's', revisionId: 'r' }, timeoutMs: 0, source: 'gepa', requireParentId: 'p' })).toEqual([]);
    expect(checkRollbackInput({ scopeKey: 'apps/a', skillId: 's', reviewer: 'alice', targetRevisionId: 'r' })).toEqual([]);
    expect(checkImportSkillInput({ scopeKey: 'apps/a', skillId: 's', revisionId: 'external-1', spec: { name: 's' } })).toEqual([]);
    expect(checkImportSkillInput({ scopeKey: 'apps/a', skillId: '', revisionId: 'r', spec: 'text' })).toEqual([
      'skillId: expected a non-empty string, got an empty string',
      'spec: expected an object, got a string',
    ]);
    expect(checkExperimentInput({ request: { anything: true } })).toEqual([]);
    expect(checkExperimentInput({ continued: { context: {}, state: {} }, iterationsPerRun: 5 })).toEqual([]);
    expect(checkEvaluationBatchInput(batch)).toEqual([]);
    expect(checkEvaluationBatchInput({ ...batch, iteration: 3 })).toEqual([]);
  });

  it('missing, null, {} and wrong types name the field', () => {
    expect(checkSessionInput(null)).toEqual(['input: expected an object, got null']);
    expect(checkLearningJobInput(undefined)).toEqual(['input: expected an object, got missing']);
    expect(checkLearningJobInput({})).toEqual(['segment: expected an object, got missing']);
    expect(checkLearningJobInput({ segment: { ...segment, eventCount: -1, scopeKey: 'apps/../x', payloadRef: { sha256: 'AB', bytes: 1.5 } } })).toEqual([
      'segment.scopeKey: expected a scope key (global, apps/{app}, users/{app}/{user}), got "apps/../x"',
      'segment.eventCount: expected an integer >= 0 and <= 10000, got -1',
      'segment.payloadRef.sha256: expected 64 lowercase hex characters',
      'segment.payloadRef.bytes: expected an integer >= 0 and <= 16777216, got a number',
    ]);
    expect(checkApprovalInput({})).toEqual(['revision: expected an object, got missing']);
    expect(checkApprovalInput({ revision: { scopeKey: 'a', skillId: '', revisionId: null }, source: 'cron' })).toEqual([
      'revision.skillId: expected a non-empty string, got an empty string',
      'revision.revisionId: expected a non-empty string, got null',
      'source: expected one of reviewer, gepa, got a string',
    ]);
    expect(checkRollbackInput({ scopeKey: 'a', skillId: 's', reviewer: '  ' })).toEqual(['reviewer: expected a reviewer name, got only whitespace']);
    expect(checkExperimentInput({})).toEqual(['request: expected an object, got missing']);
    expect(checkExperimentInput({ request: {}, iterationsPerRun: 0 })).toEqual(['iterationsPerRun: expected an integer >= 1, got 0']);
    expect(checkEvaluationBatchInput({ ...batch, seed: Number.NaN, split: 'train', caseIds: ['a', 3] })).toEqual([
      'split: expected one of feedback, validation, holdout, got a string',
      'caseIds[1]: expected a non-empty string, got a number',
      'seed: expected an integer >= 0, got a number (NaN)',
    ]);
    expect(checkSessionInput({ queue: [null] })).toEqual(['queue[0]: expected an object, got null']);
    expect(checkLearningJobInput({ segment, indexedBefore: {} })).toEqual(['indexedBefore: expected an array of { skillId, seq }, got an object']);
    expect(checkSessionInput({ indexedBefore: [null, { skillId: 's', seq: -1 }] })).toEqual([
      'indexedBefore[0]: expected an object, got null',
      'indexedBefore[1].seq: expected an integer >= 0, got -1',
    ]);
  });

  it('is zod-free: constructing schemas per workflow instance is what these checks avoid', () => {
    const dir = join(__dirname, '..', '..', 'core', 'workflow-inputs');
    for (const name of readdirSync(dir)) {
      const text = readFileSync(join(dir, name), 'utf8');
      expect(text, name).not.toMatch(/from ['"]zod['"]/);
      expect(text, name).not.toMatch(/from ['"]\.\.\/(schemas|index)['"]/);
    }
  });
});
