import { describe, expect, it } from 'vitest';
import { datasetProblems, EvaluationSchema, ExperimentRequestSchema, ExperimentResultSchema, GepaOptionsSchema, type ExperimentRequestInput } from '../../core/schemas';

const cases = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i + 1}`, input: { q: i } }));
const seed = { name: 'weather', description: 'Reports weather.', when_to_use: 'Weather questions.', steps: ['Call the API.'], pitfalls: [] };

function request(overrides: Partial<ExperimentRequestInput> = {}): ExperimentRequestInput {
  return {
    seed,
    dataset: { id: 'ds', version: 'v1', feedback: cases('f', 10), validation: cases('v', 10), holdout: cases('h', 10) },
    scope: { mode: 'app', app: 'demo' },
    ...overrides,
  };
}

function messages(input: unknown): string[] {
  const r = ExperimentRequestSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe('experiment request validation', () => {
  it('accepts a valid request and fills defaults', () => {
    const r = ExperimentRequestSchema.parse(request());
    expect(r.submit).toBe(false);
    expect(r.options).toEqual({
      maxIterations: 10,
      maxMetricCalls: 1000,
      reflectionBatchSize: 3,
      randomSeed: 1,
      minHoldoutImprovement: 0,
      evaluationChunkSize: 10,
      evaluationConcurrency: 4,
      evaluationCache: { enabled: true, hitsSpendBudget: false },
      merge: { enabled: false, maxMerges: 5, subsampleSize: 5 },
      frontier: {
        type: 'instance',
        objectives: [
          { name: 'score', direction: 'maximize' },
          { name: 'tokens', direction: 'minimize' },
        ],
      },
      selection: { method: 'validation', seeds: 3, finalists: 3, folds: 5 },
    });
    expect(r.dataset?.feedback[0].critical).toBe(false);
  });

  it('names the split and the count when submit has fewer than 10 cases', () => {
    const input = request({ submit: true, skillId: 's', parentRevisionId: 'r' });
    input.dataset!.holdout = cases('h', 9);
    expect(messages(input)).toEqual(['submit requires at least 10 holdout cases, got 9']);
    input.dataset!.feedback = cases('f', 3);
    expect(messages(input)).toEqual(['submit requires at least 10 feedback cases, got 3', 'submit requires at least 10 holdout cases, got 9']);
  });

  it('allows small splits without submit', () => {
    const input = request();
    input.dataset = { id: 'ds', version: 'v1', feedback: cases('f', 2), validation: cases('v', 2) };
    expect(messages(input)).toEqual([]);
  });

  it('names the id and both splits for a case id reused across splits', () => {
    const input = request();
    input.dataset!.holdout![3].id = 'v-2';
    expect(messages(input)).toEqual(['case id "v-2" appears in both the validation and holdout splits']);
    const r = ExperimentRequestSchema.safeParse(input);
    expect(r.success ? [] : r.error.issues[0].path).toEqual(['dataset', 'holdout', 3, 'id']);
  });

  it('rejects an empty validation split (and an empty feedback split)', () => {
    const input = request();
    input.dataset!.validation = [];
    expect(messages(input)).toEqual(['the validation split must not be empty']);
    input.dataset!.feedback = [];
    expect(messages(input)).toContain('the feedback split must not be empty');
  });

  it('requires skillId and parentRevisionId for submit', () => {
    expect(messages(request({ submit: true }))).toEqual([
      'submit requires skillId (submission updates an existing managed skill)',
      'submit requires parentRevisionId (the active revision the experiment started from)',
    ]);
  });

  it('requires exactly one of an inline dataset or a datasetRef', () => {
    expect(messages(request({ datasetRef: { id: 'ds', version: 'v1' } }))).toEqual(['give exactly one of dataset (inline) or datasetRef']);
    expect(messages(request({ dataset: undefined }))).toEqual(['give exactly one of dataset (inline) or datasetRef']);
    expect(messages(request({ dataset: undefined, datasetRef: { id: 'ds', version: 'v1' } }))).toEqual([]);
  });

  it('explains what is wrong with the seed skill', () => {
    expect(messages(request({ seed: { ...seed, description: '  ', steps: ['ok', ' '] } }))).toEqual(['seed skill: description must not be empty', 'seed skill: step 2 is empty']);
    expect(messages(request({ seed: { ...seed, steps: [] } }))).toEqual(['seed skill: at least one step is required']);
    const huge = { ...seed, steps: Array.from({ length: 20 }, () => 'x'.repeat(3500)) };
    expect(messages(request({ seed: huge }))[0]).toMatch(/^seed skill: spec has \d+ characters, more than the limit of 65536$/);
  });

  it('rejects out-of-range options with a named field', () => {
    expect(GepaOptionsSchema.safeParse({ minHoldoutImprovement: 1.5 }).error?.issues[0].message).toBe('minHoldoutImprovement must be in [0, 1]');
    expect(GepaOptionsSchema.safeParse({ reflectionBatchSize: 0 }).error?.issues[0].message).toBe('reflectionBatchSize must be at least 1');
  });

  it('lets the workflow re-check a loaded dataset with the same rules', () => {
    expect(datasetProblems({ feedback: cases('x', 1), validation: cases('x', 1), holdout: [] }, false).map((p) => p.message)).toEqual([
      'case id "x-1" appears in both the feedback and validation splits',
    ]);
  });
});

describe('evaluation validation', () => {
  it('accepts scores on the closed interval [0, 1]', () => {
    expect(EvaluationSchema.parse({ caseId: 'c', score: 0 }).score).toBe(0);
    expect(EvaluationSchema.parse({ caseId: 'c', score: 1, objectives: { tokens: 120 } }).score).toBe(1);
  });

  it('names the case when a score is out of range, not finite or not a number', () => {
    for (const score of [1.2, -0.1, Number.NaN, Number.POSITIVE_INFINITY, '0.5', null]) {
      const r = EvaluationSchema.safeParse({ caseId: 'val-7', score });
      expect(r.success).toBe(false);
      expect(r.error?.issues.map((i) => i.message)).toEqual(['evaluation for case "val-7": score must be a finite number in [0, 1]']);
    }
  });

  it('rejects non-finite objectives', () => {
    const r = EvaluationSchema.safeParse({ caseId: 'c', score: 0.5, objectives: { latency: Number.POSITIVE_INFINITY } });
    expect(r.error?.issues[0].message).toBe('objective values must be finite numbers');
  });
});

describe('experiment result', () => {
  it('requires the selection fields of a completed experiment', () => {
    const r = ExperimentResultSchema.safeParse({
      experimentId: 'e',
      status: 'completed',
      stopReason: 'max_iterations',
      promotionEligible: false,
      promotionReason: 'x',
      metricCallsUsed: 1,
      iterations: 0,
    });
    expect(r.error?.issues.map((i) => i.message)).toContain('a completed experiment needs bestSpec');
  });
});
