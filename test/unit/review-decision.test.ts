import { describe, expect, it } from 'vitest';
import type { ReviewDecision, SkillSpec } from '../../core/schemas';
import { InvalidReviewAnswerError, normalizeReviewDecision, reconcileDecision } from '../../core/learning';

const spec = (name: string, over: Partial<SkillSpec> = {}): SkillSpec => ({ name, description: 'd', when_to_use: 'w', steps: ['one', 'two'], pitfalls: [], ...over });
const answer = (over: Partial<ReviewDecision>): ReviewDecision => ({ skip_reason: '', creates: [], updates: [], deletions: [], ...over });
const invalid = (a: ReviewDecision) => {
  try {
    normalizeReviewDecision(a);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidReviewAnswerError);
    return (e as Error).message;
  }
  throw new Error('expected the answer to be invalid');
};

describe('normalizeReviewDecision (the reference reviewer-answer rules)', () => {
  it('a skip_reason together with any change is an invalid answer', () => {
    expect(invalid(answer({ skip_reason: 'nothing new', creates: [spec('X')] }))).toMatch(/skip_reason cannot coexist/);
    expect(invalid(answer({ skip_reason: 'nothing new', updates: [{ name: 'X', new_spec: spec('X'), reason: '' }] }))).toMatch(/skip_reason cannot coexist/);
    expect(invalid(answer({ skip_reason: 'nothing new', deletions: ['X'] }))).toMatch(/skip_reason cannot coexist/);
    expect(normalizeReviewDecision(answer({ skip_reason: '  nothing new  ' }))).toEqual({ ...answer({ skip_reason: 'nothing new' }), dropped: [] });
  });

  it('a proposed skill missing its name, description, when_to_use or steps is an invalid answer', () => {
    expect(invalid(answer({ creates: [spec('')] }))).toMatch(/creates\[0\].*name/);
    expect(invalid(answer({ creates: [spec('X', { description: '  ' })] }))).toMatch(/creates\[0\] "X".*description/);
    expect(invalid(answer({ creates: [spec('X', { when_to_use: '' })] }))).toMatch(/when_to_use/);
    expect(invalid(answer({ creates: [spec('X', { steps: [' ', ''] })] }))).toMatch(/steps/);
    expect(invalid(answer({ updates: [{ name: 'X', new_spec: spec('X', { description: '' }), reason: '' }] }))).toMatch(/updates\[0\] "X".*description/);
  });

  it('nameless updates and deletions and all-blank skills are dropped quietly, each with its reason', () => {
    const out = normalizeReviewDecision(
      answer({
        creates: [spec('  ', { description: ' ', when_to_use: '\n', steps: [' '] }), spec('Keep')],
        updates: [{ name: '   ', new_spec: spec('whatever'), reason: 'r' }],
        deletions: ['', '  '],
      }),
    );
    expect(out.creates.map((c) => c.name)).toEqual(['Keep']);
    expect(out.updates).toEqual([]);
    expect(out.deletions).toEqual([]);
    expect(out.dropped).toEqual([
      { list: 'deletions', name: '', reason: 'deletion names no skill' },
      { list: 'deletions', name: '  ', reason: 'deletion names no skill' },
      { list: 'updates', name: '   ', reason: 'update names no skill' },
      { list: 'creates', name: '  ', reason: 'proposed skill is blank: every field is empty' },
    ]);
    // A skip whose only entries are such blanks is a valid skip.
    const skip = normalizeReviewDecision(answer({ skip_reason: 'nothing', deletions: [' '] }));
    expect(skip).toMatchObject({ skip_reason: 'nothing', creates: [], updates: [], deletions: [] });
    expect(skip.dropped).toHaveLength(1);
  });

  it('trims every text field; an update takes its name into new_spec', () => {
    const out = normalizeReviewDecision(
      answer({
        creates: [{ name: '  Weather  ', description: ' d \n', when_to_use: '\n w ', steps: ['  one ', ' ', 'two'], pitfalls: [' p ', ''] }],
        updates: [{ name: ' Old ', new_spec: spec('other name', { description: ' nd ' }), reason: '  better  ' }],
        deletions: ['  Gone '],
      }),
    );
    expect(out.creates).toEqual([{ name: 'Weather', description: 'd', when_to_use: 'w', steps: ['one', 'two'], pitfalls: ['p'] }]);
    expect(out.updates).toEqual([{ name: 'Old', reason: 'better', new_spec: spec('Old', { description: 'nd' }) }]);
    expect(out.deletions).toEqual(['Gone']);
  });

  it('the reconciler records the quiet drops with their reasons', () => {
    const out = normalizeReviewDecision(answer({ creates: [spec('Keep')], deletions: [' '] }));
    const r = reconcileDecision(out, []);
    expect(r.events).toContainEqual({ kind: 'drop_invalid', list: 'deletions', original: ' ', reason: 'deletion names no skill' });
    expect(r.decision.creates.map((c) => c.name)).toEqual(['Keep']);
  });
});
