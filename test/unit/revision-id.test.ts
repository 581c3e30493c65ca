import { describe, expect, it } from 'vitest';
import { revisionIdFor } from '../../core/learning';
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
});
