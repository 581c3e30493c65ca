import { describe, expect, it } from 'vitest';
import { STORED_TEXT_MAX_BYTES, storedEvaluation } from '../../activities/gepa/records';
import { utf8ByteLength } from '../../core';
import { recordIds } from '../../core/gepa/ids';
import { objectiveMeans } from '../../core/gepa/objectives';
import { experimentIdFromWorkflowId, experimentWorkflowId } from '../../core/workflow-ids';

describe('experiment records', () => {
  it('stores each output, feedback and trace redacted and capped at 16 KiB (head and tail kept, UTF-8 safe)', () => {
    const secret = 'sk-live0123456789abcdefXYZ';
    const huge = `token ${secret} at the start\n${'é'.repeat(60_000)}\nthe end`;
    const stored = storedEvaluation({ caseId: 'c1', score: 0.5, output: huge, feedback: `missing: x\nkey ${secret}`, trace: 'short', objectives: { cost: 2 } });
    for (const text of [stored.output!, stored.feedback!]) {
      expect(text).not.toContain(secret);
      expect(text).toContain('[REDACTED]');
    }
    expect(utf8ByteLength(stored.output!)).toBeLessThanOrEqual(STORED_TEXT_MAX_BYTES);
    expect(stored.output).toMatch(/bytes truncated/);
    expect(stored.output!.endsWith('the end')).toBe(true);
    expect(stored.output).not.toContain('\uFFFD');
    expect(stored).toMatchObject({ caseId: 'c1', score: 0.5, trace: 'short', objectives: { cost: 2 } });
    expect(storedEvaluation({ caseId: 'c2', score: 1 })).toEqual({ caseId: 'c2', score: 1 });
  });

  it('objective means cover the evaluations that report each objective, names sorted', () => {
    expect(objectiveMeans([{ objectives: { tokens: 10, cost: 1 } }, { objectives: { tokens: 20 } }, {}])).toEqual({ cost: 1, tokens: 15 });
  });

  it('names records so they sort by iteration, then phase', () => {
    const ids = [recordIds.childValidation(2), recordIds.parentMinibatch(10), recordIds.parentMinibatch(2), recordIds.childMinibatch(2)];
    expect([...ids].sort()).toEqual([recordIds.parentMinibatch(2), recordIds.childMinibatch(2), recordIds.childValidation(2), recordIds.parentMinibatch(10)]);
  });

  it('derives experiment ids from workflow ids, scheduled runs included', () => {
    expect(experimentIdFromWorkflowId(experimentWorkflowId('exp-1'))).toBe('exp-1');
    expect(experimentIdFromWorkflowId('experiment/sched-nightly-2026-11-29T03:00:00Z')).toBe('sched-nightly-2026-11-29T03-00-00Z');
    const long = experimentIdFromWorkflowId(`experiment/${'x'.repeat(300)}`);
    expect(long).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/);
  });
});
