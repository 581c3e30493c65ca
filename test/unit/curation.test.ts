import { describe, expect, it } from 'vitest';
import {
  archiveProposals,
  checkPreservation,
  curationLines,
  DEFAULT_CURATION_SETTINGS,
  jaccard,
  nearDuplicatePairs,
  planCuration,
  proposalRevisionIds,
  similarityWords,
} from '../../core/curation';
import { mergeVerdict } from '../../core/curation/consolidation';
import { checkCuratorInput } from '../../core/workflow-inputs';
import { RevisionSchema } from '../../core/schemas/revision';
import { revisionDetails, revisionLine } from '../../cli/format';
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

describe('near-duplicate pairs', () => {
  const e = (skillId: string, description: string) => ({ skillId, name: skillId, description });

  it('pairs skills whose name and description share most words, most similar first, each skill once', () => {
    const entries = [
      e('weather-table', 'Build a weather table for several cities with temperatures'),
      e('city-weather-table', 'Build weather table for cities with temperatures'),
      e('deploy-service', 'Deploy the service to production with a canary'),
      e('weather-table-cities', 'weather table for several cities'),
    ];
    const pairs = nearDuplicatePairs(entries, { threshold: 0.5, limit: 5 });
    expect(pairs.map((p) => [p.a, p.b])).toEqual([['city-weather-table', 'weather-table']]);
    expect(pairs[0]!.similarity).toBeGreaterThan(0.5);
    // The same answer whatever order the index lists them in.
    expect(nearDuplicatePairs([...entries].reverse(), { threshold: 0.5, limit: 5 })).toEqual(pairs);
    expect(nearDuplicatePairs(entries, { threshold: 0.99, limit: 5 })).toEqual([]);
    expect(jaccard(similarityWords({ name: 'a-b', description: '' }), new Set())).toBe(0);
  });

  it('stays bounded and deterministic over 2,000 skills', () => {
    const many = Array.from({ length: 2000 }, (_, i) => e(`skill-${i}`, `topic${i} handles case${i} and variant${i % 7}`));
    many.push(e('skill-dup', 'topic5 handles case5 and variant5'));
    const pairs = nearDuplicatePairs(many, { threshold: 0.6, limit: 5 });
    expect(pairs.map((p) => [p.a, p.b])).toEqual([['skill-5', 'skill-dup']]);
  });
});

describe('curation plan (what a run proposes; the dry run calls the same function)', () => {
  const day = 86_400_000;
  const live = (skillId: string, over: Partial<{ description: string; managed: boolean; pinned: boolean }> = {}) => ({
    skillId,
    name: skillId,
    description: over.description ?? `unrelated ${skillId}`,
    revisionId: `${skillId}-1`,
    managed: over.managed ?? true,
    pinned: over.pinned ?? false,
  });
  const skills = [
    live('idle'),
    live('pinned', { pinned: true }),
    live('hand-written', { managed: false }),
    live('waiting'),
    live('csv-report', { description: 'export a csv report of monthly sales figures' }),
    live('csv-sales-report', { description: 'export csv report of monthly sales figures' }),
  ];
  const offered = skills.map((s) => ({ skillId: s.skillId, name: s.name, revisionId: s.revisionId }));
  const { summary } = applyUsage(
    emptyUsage('apps/x'),
    [{ jobId: 'j', outcome: 'success', loads: [{ name: 'csv-sales-report', skillId: 'csv-sales-report', revisionId: 'csv-sales-report-1', scopeKey: 'apps/x' }] }],
    offered,
    '2026-11-01T00:00:00.000Z',
  );
  const { summary: later } = applyUsage(
    summary,
    [{ jobId: 'k', outcome: 'success', loads: ['csv-report', 'csv-sales-report'].map((n) => ({ name: n, skillId: n, revisionId: `${n}-1`, scopeKey: 'apps/x' })) }],
    offered,
    '2026-12-04T00:00:00.000Z',
  );
  const report = usageReport(later, offered, { now: Date.parse('2026-12-05T00:00:00.000Z'), windowMs: 30 * day });
  const settings = { ...DEFAULT_CURATION_SETTINGS, windowMs: 30 * day };

  it('archives the unused skill, spares pinned, unmanaged and pending ones, revives what is asked for, merges near-duplicates keeping the one loaded more', () => {
    const plan = planCuration({
      report,
      skills,
      pending: new Set(['waiting']),
      revive: [
        { skillId: 'old-skill', name: 'old-skill', tombstoneRevisionId: 'rev-del-0', hasContent: true, requestedBy: 'alice' },
        { skillId: 'idle', name: 'idle', tombstoneRevisionId: undefined, hasContent: false, requestedBy: 'bob' },
        { skillId: 'never', name: 'never', hasContent: false, requestedBy: 'bob' },
      ],
      settings,
    });
    expect(plan.proposals.map((p) => (p.kind === 'merge' ? [p.kind, p.keep.skillId, p.absorb.skillId] : [p.kind, p.skillId]))).toEqual([
      ['archive', 'idle'],
      ['revive', 'old-skill'],
      ['merge', 'csv-sales-report', 'csv-report'],
    ]);
    expect(plan.spared).toEqual(
      expect.arrayContaining([
        { skillId: 'pinned', name: 'pinned', why: 'pinned' },
        { skillId: 'hand-written', name: 'hand-written', why: 'unmanaged' },
        { skillId: 'waiting', name: 'waiting', why: 'pending' },
        { skillId: 'idle', name: 'idle', why: 'live' },
        { skillId: 'never', name: 'never', why: 'not archived' },
      ]),
    );
    expect(plan.proposals[0]).toMatchObject({ kind: 'archive', revisionId: 'idle-1' });
  });

  it('names the same revisions for the same proposal in every run, and new ones once a skill changed', () => {
    const p = { kind: 'archive' as const, skillId: 'idle', name: 'idle', revisionId: 'idle-1', reason: 'r', offered: 1 };
    expect(proposalRevisionIds('apps/x', p)).toEqual(proposalRevisionIds('apps/x', { ...p, reason: 'another run' }));
    expect(proposalRevisionIds('apps/x', p)).not.toEqual(proposalRevisionIds('apps/x', { ...p, revisionId: 'idle-2' }));
    const merge = planCuration({ report, skills, pending: new Set(), revive: [], settings }).proposals.find((x) => x.kind === 'merge')!;
    expect(proposalRevisionIds('apps/x', merge)).toHaveLength(2);
  });

  it('never pairs a pinned skill', () => {
    const pinnedDup = skills.map((s) => (s.skillId === 'csv-report' ? { ...s, pinned: true } : s));
    expect(planCuration({ report, skills: pinnedDup, pending: new Set(), revive: [], settings }).proposals.filter((p) => p.kind === 'merge')).toEqual([]);
  });
});

describe('merge verdict', () => {
  const keep = spec('weather', ['Look up each city'], ['Rate limits of the API']);
  const absorb = spec('weather-table', ['Build one table'], ['Cities with the same name']);

  it('keeps the kept skill name and refuses a merge that drops a pitfall without a reason', () => {
    const merged = { merged: spec('renamed', ['Look up each city', 'Build one table'], ['Rate limits of the API']), dropped: [], rationale: '' };
    const v = mergeVerdict(keep, absorb, merged);
    expect(v.spec.name).toBe('weather');
    expect(v.refused).toEqual(['pitfall of weather-table dropped without a reason: "Cities with the same name"']);
    const explained = mergeVerdict(keep, absorb, { ...merged, dropped: [{ item: 'Cities with the same name', reason: 'geocoder disambiguates' }] });
    expect(explained.refused).toEqual([]);
    expect(explained.check.dropped).toEqual([{ source: 'weather-table', kind: 'pitfall', item: 'Cities with the same name', reason: 'geocoder disambiguates' }]);
  });
});

describe('what the approver reads about a curator proposal', () => {
  it('lists every item a merge drops, with its reason, and says when it drops nothing', () => {
    expect(
      curationLines({
        kind: 'merge',
        runId: 'curate/apps/x-2026-12-05T00:00:00Z',
        mergedFrom: ['csv-report'],
        dropped: [{ source: 'csv-report', kind: 'pitfall', item: 'Old exporter', reason: 'removed last year' }],
      }),
    ).toEqual([
      'curator merge: csv-report merged into this skill (run curate/apps/x-2026-12-05T00:00:00Z)',
      'merge drops pitfall of csv-report: "Old exporter" (reason: removed last year)',
    ]);
    expect(curationLines({ kind: 'merge', runId: 'r', mergedFrom: ['a'], dropped: [] })[1]).toMatch(/drops nothing/);
    expect(curationLines({ kind: 'merge', runId: 'r', mergedInto: 'b' })).toEqual(['curator merge: archived, merged into b (run r)']);
    expect(curationLines(undefined)).toEqual([]);
  });
});

describe('curator workflow input', () => {
  it('accepts a scope with options, and says what is wrong with a hostile one', () => {
    expect(checkCuratorInput({ scope: { mode: 'app', app: 'shop' }, windowMs: 30 * 86_400_000, autoArchive: true, revive: ['old'] })).toEqual([]);
    expect(checkCuratorInput(null)).toEqual(['input: expected an object, got null']);
    expect(checkCuratorInput({ scope: { mode: 'app' } }).join('; ')).toMatch(/^scope: /);
    expect(checkCuratorInput({ scope: { mode: 'app', app: 'shop' }, windowMs: 5, similarityThreshold: 2, maxMerges: -1, autoArchive: 'yes', revive: [''] })).toEqual([
      expect.stringMatching(/^windowMs/),
      expect.stringMatching(/^similarityThreshold/),
      expect.stringMatching(/^maxMerges/),
      'autoArchive: expected a boolean',
      expect.stringMatching(/^revive\[0\]/),
    ]);
  });
});

describe('evolution pending / show print what a merge drops', () => {
  it('lists the dropped items under the held revision and in its details', () => {
    const revision = RevisionSchema.parse({
      id: 'rev-1',
      skillId: 'csv-sales-report',
      scopeKey: 'apps/x',
      scope: { mode: 'app', app: 'x' },
      action: 'update',
      status: 'pending_approval',
      spec: spec('csv-sales-report', ['q'], []),
      source: 'curator',
      jobId: 'curation/apps/x/merge/…',
      human: { held: true, reasons: ['policy holds revisions from curator'] },
      curation: { kind: 'merge', runId: 'run-1', mergedFrom: ['csv-report'], dropped: [{ source: 'csv-report', kind: 'pitfall', item: 'Old exporter', reason: 'gone' }] },
      createdAt: '2026-12-05T00:00:00Z',
      updatedAt: '2026-12-05T00:00:00Z',
    });
    expect(revisionLine(revision)).toContain('    merge drops pitfall of csv-report: "Old exporter" (reason: gone)');
    expect(revisionLine(revision)).toContain('    held: policy holds revisions from curator');
    expect(revisionDetails(revision)).toContain('curation   merge drops pitfall of csv-report: "Old exporter" (reason: gone)');
  });
});
