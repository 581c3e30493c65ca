import { describe, expect, it } from 'vitest';
import { applyUsage, emptyUsage, usageReport } from '../../core/usage';
import { usageSection } from '../../console/views/usage';

describe('console usage section', () => {
  it('renders load and success rates per revision with an SVG chart, and says so when nothing was counted', async () => {
    const offered = [{ skillId: 'a', name: 'a', revisionId: 'a-2' }];
    const load = { name: 'a', skillId: 'a', revisionId: 'a-2', scopeKey: 'apps/x' };
    const { summary } = applyUsage(
      emptyUsage('apps/x'),
      [
        { jobId: '1', outcome: 'success', tokens: 90, loads: [load] },
        { jobId: '2', outcome: 'fail', loads: [] },
      ],
      offered,
      '2026-12-01T00:00:00.000Z',
    );
    const report = usageReport(summary, offered, { now: Date.parse('2026-12-02T00:00:00.000Z'), windowMs: 7 * 86_400_000 });
    const text = String(await usageSection(report.skills[0], report.windowDays));
    expect(text).toContain('data-testid="usage-chart"');
    expect(text).toMatch(/Loaded in <strong>1<\/strong> of 2 sessions offered it \(50%\)/);
    expect(text).toContain('<title>a-2: success with 100%</title>');
    expect(text).toContain('<title>a-2: success without 0%</title>');
    expect(text).toContain('<td class="num">90</td>');
    expect(String(await usageSection(undefined, 7))).toContain('No sessions counted');
  });
});
