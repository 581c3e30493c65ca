import { describe, expect, it } from 'vitest';
import { learningJobTag, learningJobTagOf, learningRevisionIdFor, revisionIdFor } from '../../core/learning';
import { isSafeSegment } from '../../core/skills';

describe('revisionIdFor', () => {
  it('is deterministic in (jobId, ordinal) and distinct across both', () => {
    const a = revisionIdFor('learning/apps/shop/s1/seg-1', 0);
    expect(a).toMatch(/^rev-[0-9a-f]{24}-0$/);
    expect(revisionIdFor('learning/apps/shop/s1/seg-1', 0)).toBe(a);
    expect(revisionIdFor('learning/apps/shop/s1/seg-1', 1)).not.toBe(a);
    expect(revisionIdFor('learning/apps/shop/s1/seg-2', 0)).not.toBe(a);
  });

  it('is a safe storage key segment even for hostile job ids', () => {
    for (const jobId of ['../../x', 'a/b', '日本', 'x'.repeat(5000)]) expect(isSafeSegment(revisionIdFor(jobId, 12))).toBe(true);
  });

  it('rejects invalid input', () => {
    expect(() => revisionIdFor('', 0)).toThrow(RangeError);
    expect(() => revisionIdFor('job', -1)).toThrow(RangeError);
    expect(() => revisionIdFor('job', 1.5)).toThrow(RangeError);
  });

  it("a learning job's revision carries its job's tag (what its stored outcome is keyed by); ids of other shapes carry none", () => {
    const jobId = 'learning/apps/shop/s1/seg-1';
    const id = learningRevisionIdFor('apps/shop', jobId, 0);
    expect(id).toMatch(/^rev-[0-9a-f]{8}-[0-9a-f]{32}-0$/);
    expect(learningRevisionIdFor('apps/shop', jobId, 0)).toBe(id);
    expect(learningRevisionIdFor('apps/shop', jobId, 1)).not.toBe(id);
    expect(learningJobTagOf(id)).toEqual(learningJobTag('apps/shop', jobId));
    expect(learningJobTagOf(learningRevisionIdFor('apps/shop', jobId, 17))).toEqual(learningJobTag('apps/shop', jobId));
    // A scope's jobs share the scope part of the tag; other scopes' do not.
    expect(learningJobTag('apps/shop', 'learning/apps/shop/s2/seg-9').scope).toBe(learningJobTag('apps/shop', jobId).scope);
    expect(learningJobTag('apps/other', jobId).scope).not.toBe(learningJobTag('apps/shop', jobId).scope);
    const tag = learningJobTag('apps/shop', jobId);
    for (const other of [
      revisionIdFor(jobId, 0),
      'external-0123456789abcdef01234567',
      `rev-${tag.scope}-${tag.job}-01`,
      `rev-${tag.scope}-${tag.job}-`,
      `rev-${tag.scope}${tag.job}-0`,
      `x-${id}`,
    ])
      expect(learningJobTagOf(other)).toBeUndefined();
    expect(() => learningRevisionIdFor('', jobId, 0)).toThrow(RangeError);
    expect(() => learningRevisionIdFor('apps/shop', jobId, -1)).toThrow(RangeError);
  });
});
