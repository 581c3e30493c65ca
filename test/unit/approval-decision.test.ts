import { describe, expect, it } from 'vitest';
import { ApprovalDecisionSchema } from '../../core';
import { approvalDecisionProblems } from '../../core/governance/approval-decision';

const CASES: Array<[string, unknown]> = [
  ['approve', { decision: 'approve', reviewer: 'alice' }],
  ['reject with comment', { decision: 'reject', reviewer: 'bob', comment: 'no' }],
  ['extra keys are ignored', { decision: 'approve', reviewer: 'alice', extra: 1 }],
  ['padded reviewer', { decision: 'approve', reviewer: '  carol  ' }],
  ['comment at the limit', { decision: 'approve', reviewer: 'a', comment: 'x'.repeat(4000) }],
  ['comment over the limit', { decision: 'approve', reviewer: 'a', comment: 'x'.repeat(4001) }],
  ['unknown verdict', { decision: 'maybe', reviewer: 'alice' }],
  ['missing verdict', { reviewer: 'alice' }],
  ['missing reviewer', { decision: 'approve' }],
  ['blank reviewer', { decision: 'approve', reviewer: '   ' }],
  ['reserved reviewer', { decision: 'approve', reviewer: 'auto-expire' }],
  ['reserved reviewer, padded', { decision: 'approve', reviewer: ' auto-expire ' }],
  ['numeric reviewer', { decision: 'approve', reviewer: 7 }],
  ['numeric comment', { decision: 'approve', reviewer: 'a', comment: 7 }],
  ['null', null],
  ['undefined', undefined],
  ['a string', 'approve'],
  ['an array', []],
];

describe('approvalDecisionProblems (zod-free, used by the approval workflow)', () => {
  it.each(CASES)('agrees with ApprovalDecisionSchema: %s', (_label, input) => {
    const zodOk = ApprovalDecisionSchema.safeParse(input).success;
    expect(approvalDecisionProblems(input).length === 0).toBe(zodOk);
  });

  it('names the field and the rule', () => {
    expect(approvalDecisionProblems({ decision: 'approve', reviewer: 'auto-expire' })).toEqual(['reviewer: reviewer "auto-expire" is reserved for the approval timeout']);
    expect(approvalDecisionProblems({ decision: 'ok', reviewer: '' })).toEqual(['decision: expected "approve" or "reject"', 'reviewer: a reviewer name is required']);
  });
});
