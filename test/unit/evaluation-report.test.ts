import { describe, expect, it } from 'vitest';
import { buildReport, renderReportHtml, signOf, tInterval, type CaseResult } from '../../core/evaluation';

const result = (arm: CaseResult['arm'], caseId: string, seed: number, pass: boolean): CaseResult => ({
  runId: 'r',
  family: 'f',
  arm,
  phase: 'search',
  caseId,
  seed,
  pass,
  quality: pass ? 1 : 0.5,
  notes: pass ? [] : ['missing: something'],
  promptTokens: 100,
  completionTokens: 10,
  modelCalls: 2,
  skillsLoaded: arm === 'baseline' ? [] : ['s'],
  toolCalls: [],
  answer: '',
});

describe('paired-seed statistics', () => {
  it('t-interval: mean ± t(n-1)·s/√n', () => {
    const i = tInterval([1, 2, 3, 4, 5]);
    expect(i.mean).toBe(3);
    // s = √2.5, t(4) = 2.776
    expect(i.high - i.mean).toBeCloseTo(2.776 * Math.sqrt(2.5 / 5), 6);
    expect(signOf(i)).toBe('better');
    expect(signOf(tInterval([-1, 1, 0]))).toBe('unclear');
    // four seeds, one without the gain: the interval reaches below zero
    expect(signOf(tInterval([0.5, 0, 0.5, 0.5]))).toBe('unclear');
    expect(tInterval([0.5])).toEqual({ mean: 0.5, low: 0.5, high: 0.5, n: 1 });
  });

  it('the report pairs each arm with the baseline by seed, lists losses as negative transfer, and adds the setup cost end to end', () => {
    const results: CaseResult[] = [];
    for (const seed of [1, 2, 3, 4, 5, 6])
      for (const c of ['a', 'b']) {
        results.push(result('baseline', c, seed, c === 'b'));
        // online: wins case a on every seed, loses case b on seed 2
        results.push(result('online', c, seed, !(c === 'b' && seed === 2)));
      }
    const report = buildReport({
      runId: 'r',
      family: 'f',
      expectedEffect: 'helps',
      model: { agent: 'm', baseURL: 'http://x' },
      generatedAt: '2026-01-01T00:00:00Z',
      arms: ['baseline', 'online'],
      phases: ['search'],
      results,
      setups: [{ runId: 'r', arm: 'online', skills: [{ name: 's' }], cost: { modelCalls: 1, promptTokens: 500, completionTokens: 50 }, notes: [] }],
    });
    const online = report.summaries.find((s) => s.arm === 'online')!;
    // per seed: baseline 0.5 every seed; online 1, 0.5, 1, 1, 1, 1 → differences 0.5, 0, 0.5, 0.5, 0.5, 0.5
    expect(online.vsBaseline!.passRate.mean).toBeCloseTo(2.5 / 6);
    // s = √(1/24), t(5) = 2.571
    expect(online.vsBaseline!.passRate.low).toBeCloseTo(2.5 / 6 - 2.571 * Math.sqrt(1 / 24 / 6), 6);
    expect(online.vsBaseline!.verdict).toBe('better');
    expect(online.passRate.high).toBeLessThanOrEqual(1);
    expect(report.cases).toContainEqual({ arm: 'online', phase: 'search', caseId: 'a', wins: [1, 2, 3, 4, 5, 6], losses: [], ties: 0 });
    expect(report.cases).toContainEqual({ arm: 'online', phase: 'search', caseId: 'b', wins: [], losses: [2], ties: 5 });
    expect(report.negativeTransfer).toEqual([{ arm: 'online', phase: 'search', caseId: 'b', seed: 2, notes: ['missing: something'] }]);
    expect(report.totals.find((t) => t.arm === 'online')).toMatchObject({ modelCalls: 12 * 2 + 1, promptTokens: 12 * 100 + 500, completionTokens: 12 * 10 + 50 });

    const html = renderReportHtml(report);
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script|src="http/);
    expect(html).toContain('online · search · b · seed 2');
  });
});
