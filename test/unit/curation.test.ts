import { describe, expect, it } from 'vitest';
import { archiveProposals, checkPreservation } from '../../core/curation';
import { applyUsage, emptyUsage, usageReport } from '../../core/usage';

const spec = (name: string, steps: string[], pitfalls: string[]) => ({ name, description: name, when_to_use: 'w', steps, pitfalls });

describe('merge content-preservation check', () => {
  const a = spec('weather-a', ['Look up each city.', 'Build one table'], ['Rate limits of the API']);
  const b = spec('weather-b', ['look up each city', 'Convert units to Celsius'], ['Cities with the same name']);

  it('passes when every step and pitfall appears (case, punctuation and combined items allowed)', () => {
    const merged = spec('weather', ['Look up each city', 'Convert units to Celsius and build one table'], ['rate limits of the API.', 'Cities with the same name']);
    expect(checkPreservation([a, b], merged, [])).toEqual({ ok: true, missing: [], dropped: [] });
  });

  it('refuses a merge that drops a pitfall without a reason, and lists what a reason covers', () => {
    const merged = spec('weather', ['Look up each city', 'Build one table', 'Convert units to Celsius'], ['Rate limits of the API']);
    const refused = checkPreservation([a, b], merged, []);
    expect(refused).toMatchObject({ ok: false, missing: [{ source: 'weather-b', kind: 'pitfall', item: 'Cities with the same name' }] });
    expect(checkPreservation([a, b], merged, [{ item: 'Cities with the same name', reason: '   ' }]).ok).toBe(false);
    const explained = checkPreservation([a, b], merged, [{ item: 'cities with the same name', reason: 'the geocoder disambiguates now' }]);
    expect(explained).toEqual({
      ok: true,
      missing: [],
      dropped: [{ source: 'weather-b', kind: 'pitfall', item: 'Cities with the same name', reason: 'the geocoder disambiguates now' }],
    });
  });
});

describe('archive proposals', () => {
  const day = 86_400_000;
  const offered = ['idle', 'pinned', 'hand-written', 'busy'].map((n) => ({ skillId: n, name: n, revisionId: `${n}-1` }));
  const { summary } = applyUsage(
    emptyUsage('apps/x'),
    [{ jobId: 'j', outcome: 'success', loads: [{ name: 'busy', skillId: 'busy', revisionId: 'busy-1', scopeKey: 'apps/x' }] }],
    offered,
    '2026-11-01T00:00:00.000Z',
  );

  it('proposes an unused managed skill after the window, never a pinned or unmanaged one, and nothing before the window', () => {
    const skills = [
      { skillId: 'idle', name: 'idle', managed: true, pinned: false },
      { skillId: 'pinned', name: 'pinned', managed: true, pinned: true },
      { skillId: 'hand-written', name: 'hand-written', managed: false, pinned: false },
      { skillId: 'busy', name: 'busy', managed: true, pinned: false },
    ];
    const after = archiveProposals(usageReport(summary, offered, { now: Date.parse('2026-12-05T00:00:00.000Z'), windowMs: 30 * day }), skills);
    expect(after.proposals.map((p) => p.name)).toEqual(['busy', 'idle']); // busy was last loaded 34 days ago
    expect(after.proposals.find((p) => p.name === 'idle')!.reason).toMatch(/not loaded in 30 days .*never loaded/);
    expect(after.skipped).toEqual([
      { skillId: 'hand-written', name: 'hand-written', why: 'unmanaged' },
      { skillId: 'pinned', name: 'pinned', why: 'pinned' },
    ]);
    const before = archiveProposals(usageReport(summary, offered, { now: Date.parse('2026-11-20T00:00:00.000Z'), windowMs: 30 * day }), skills);
    expect(before).toEqual({ proposals: [], skipped: [] });
  });
});
