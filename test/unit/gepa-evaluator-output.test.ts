import { describe, expect, it } from 'vitest';
import { alignEvaluations, EvaluationContractError } from '../../core';

// Issue 10 item 4: what an evaluator in any SDK may answer.
describe('evaluator output: non-finite numbers and nulls', () => {
  const check = (raw: unknown[]) => () => alignEvaluations(['a', 'b'], raw);

  it('NaN, Infinity and non-numbers in score fail naming the case', () => {
    for (const score of [Number.NaN, Infinity, 'NaN', 'Infinity', null, '0.5', undefined]) {
      expect(
        check([
          { caseId: 'a', score },
          { caseId: 'b', score: 0 },
        ]),
        String(score),
      ).toThrow(EvaluationContractError);
      expect(
        check([
          { caseId: 'a', score },
          { caseId: 'b', score: 0 },
        ]),
        String(score),
      ).toThrow(/case "a": score must be a finite number in \[0, 1\]/);
    }
  });

  it('NaN, Infinity and non-numbers in objectives fail naming the case and the objective', () => {
    for (const value of [Number.NaN, -Infinity, 'NaN', '-Infinity', null, 'fast']) {
      expect(
        check([
          { caseId: 'a', score: 1 },
          { caseId: 'b', score: 0, objectives: { cost: value } },
        ]),
        String(value),
      ).toThrow(/evaluation #2 \(case "b"\): objectives\.cost: objective values must be finite numbers/);
    }
  });

  it('null in an optional field means absent', () => {
    const { evaluations } = alignEvaluations(['a'], [{ caseId: 'a', score: 0.5, output: null, feedback: null, trace: null, objectives: null }]);
    expect(evaluations).toEqual([{ caseId: 'a', score: 0.5 }]);
  });
});
