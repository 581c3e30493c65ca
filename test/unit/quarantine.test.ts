import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../core/config';
import { deltaFingerprint, isPoisonDelta, withReviewFailure } from '../../core/governance';

const failure = (jobId: string) => ({ jobId, reason: `failed in ${jobId}`, at: '2026-01-01T00:00:00.000Z' });

describe('poison-delta quarantine (pure parts)', () => {
  it('the same delta is the same cursor position and first event, whatever was appended after it', () => {
    const first = { timestamp: '2026-01-01T00:00:00Z', role: 'user', content: 'hi' };
    expect(deltaFingerprint({}, first)).toBe(deltaFingerprint({ lastEventCount: 0 }, first));
    expect(deltaFingerprint({}, first)).toMatch(/^d-[0-9a-f]{32}$/);
    expect(deltaFingerprint({ lastReviewedAt: '2026-01-01T00:00:00Z', lastEventCount: 4 }, first)).not.toBe(deltaFingerprint({}, first));
    expect(deltaFingerprint({}, { ...first, content: 'other' })).not.toBe(deltaFingerprint({}, first));
  });

  it('counts distinct failed jobs; a retried record of one job counts once', () => {
    let failures = withReviewFailure([], failure('j1'));
    failures = withReviewFailure(failures, failure('j1'));
    failures = withReviewFailure(failures, failure('j2'));
    expect(failures.map((f) => f.jobId)).toEqual(['j1', 'j2']);
    expect(isPoisonDelta(failures, 3)).toBe(false);
    expect(isPoisonDelta(withReviewFailure(failures, failure('j3')), 3)).toBe(true);
    expect(isPoisonDelta(failures, 2)).toBe(true);
  });

  it('EVOLUTION_QUARANTINE_AFTER_FAILURES: default 3, at least 1', () => {
    expect(parseConfig({}).governance.quarantineAfterFailures).toBe(3);
    expect(parseConfig({ EVOLUTION_QUARANTINE_AFTER_FAILURES: '5' }).governance.quarantineAfterFailures).toBe(5);
    expect(() => parseConfig({ EVOLUTION_QUARANTINE_AFTER_FAILURES: '0' })).toThrow(/EVOLUTION_QUARANTINE_AFTER_FAILURES="0": must be at least 1/);
  });
});
