import { describe, expect, it } from 'vitest';
import {
  applyScopeRecords,
  applyUsage,
  attributeSession,
  emptyUsage,
  MAX_RECENT_JOBS,
  parseSkillLoadMarker,
  skillLoadMarker,
  usageReport,
  type OfferedSkill,
  type ScopeRecord,
  type SessionEvent,
  type SessionUsage,
} from '../../core';

const SCOPE = 'apps/shop';
const ref = (name: string, revisionId: string) => ({ name, skillId: name, revisionId, scopeKey: SCOPE });

/** A transcript in which the agent calls skill_load once per name, answered as the tool answers. */
function sessionLoading(results: Array<{ asked: string; result: string }>): SessionEvent[] {
  const events: SessionEvent[] = [{ role: 'user', content: 'do the task' }];
  results.forEach(({ asked, result }, i) => {
    events.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'skill_load', arguments: JSON.stringify({ name: asked }) } }],
    });
    events.push({ role: 'tool', tool_call_id: `c${i}`, content: result });
  });
  events.push({ role: 'assistant', content: 'done' });
  return events;
}

describe('skill_load marker', () => {
  it('round-trips, and a value cannot close the comment early', () => {
    const r = { name: 'x --> y', skillId: 'x', revisionId: 'rev-1', scopeKey: SCOPE };
    const line = skillLoadMarker(r);
    expect(line.indexOf('-->')).toBe(line.length - 3);
    expect(parseSkillLoadMarker(`${line}\n# body`)).toEqual(r);
  });

  it('is only read from the start of a result', () => {
    expect(parseSkillLoadMarker(`some text ${skillLoadMarker(ref('a', 'r'))}`)).toBeUndefined();
    expect(parseSkillLoadMarker('<!-- skill_load {"name":1} -->')).toBeUndefined();
    expect(parseSkillLoadMarker('<!-- skill_load not json -->')).toBeUndefined();
  });
});

describe('attributeSession', () => {
  it('finds the revisions loaded, once each, and skips errors', () => {
    const events = sessionLoading([
      { asked: 'a', result: `${skillLoadMarker(ref('a', 'a-1'))}\n# a` },
      { asked: 'a', result: `${skillLoadMarker(ref('a', 'a-1'))}\n# a` },
      { asked: 'b', result: 'error: no published skill named "b"' },
      { asked: 'c', result: '# c, from a tool that names no revision' },
    ]);
    const usage = attributeSession('job-1', events, { status: 'success', score: 0.5, tokens: 1200 });
    expect(usage).toEqual({ jobId: 'job-1', outcome: 'success', score: 0.5, tokens: 1200, loads: [ref('a', 'a-1'), { name: 'c' }] });
  });

  it('ignores other tools and a session without an outcome has none', () => {
    const events: SessionEvent[] = [
      { role: 'assistant', tool_calls: [{ id: 'w', function: { name: 'weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'w', content: skillLoadMarker(ref('a', 'a-1')) },
    ];
    expect(attributeSession('j', events, undefined)).toEqual({ jobId: 'j', loads: [] });
  });
});

describe('applyUsage', () => {
  const offered: OfferedSkill[] = [
    { skillId: 'a', name: 'a', revisionId: 'a-1' },
    { skillId: 'b', name: 'b', revisionId: 'b-1' },
  ];
  const s = (jobId: string, outcome: SessionUsage['outcome'], loads: SessionUsage['loads'], extra: Partial<SessionUsage> = {}): SessionUsage => ({
    jobId,
    outcome,
    loads,
    ...extra,
  });

  it('counts offered, loaded and outcomes with and without each revision', () => {
    const sessions = [
      s('j1', 'success', [ref('a', 'a-1')], { score: 1, tokens: 100 }),
      s('j2', 'fail', [], { score: 0, tokens: 300 }),
      s('j3', 'success', [{ name: 'A' }]), // by name: the live revision of "a"
      s('j4', 'partial', [ref('other', 'o-9')]), // not in this scope's index
    ];
    const { summary, applied } = applyUsage(emptyUsage(SCOPE), sessions, offered, '2026-12-01T00:00:00.000Z');
    expect(applied).toBe(4);
    expect(summary.sessions).toBe(4);
    const a = summary.skills.find((x) => x.skillId === 'a')!.revisions[0]!;
    expect(a).toMatchObject({ revisionId: 'a-1', offered: 4, loaded: 2 });
    expect(a.with).toMatchObject({ n: 2, success: 2, scoreSum: 1, scored: 1, tokenSum: 100, tokened: 1 });
    expect(a.without).toMatchObject({ n: 2, fail: 1, partial: 1, tokenSum: 300 });
    const b = summary.skills.find((x) => x.skillId === 'b')!;
    expect(b.revisions[0]).toMatchObject({ offered: 4, loaded: 0 });
    expect(b.lastLoadedAt).toBeUndefined();
    expect(summary.skills.find((x) => x.skillId === 'other')!.revisions[0]).toMatchObject({ revisionId: 'o-9', offered: 1, loaded: 1 });
  });

  it('counts a job once however often its burst is applied, and keeps its input unchanged', () => {
    const first = applyUsage(emptyUsage(SCOPE), [s('j1', 'success', [])], offered, '2026-12-01T00:00:00.000Z').summary;
    const frozen = JSON.stringify(first);
    const again = applyUsage(first, [s('j1', 'success', []), s('j2', 'fail', [])], offered, '2026-12-01T00:00:01.000Z');
    expect(again.applied).toBe(1);
    expect(again.summary.sessions).toBe(2);
    expect(JSON.stringify(first)).toBe(frozen);
    expect(applyUsage(again.summary, [s('j2', 'fail', [])], offered, '2026-12-01T00:00:02.000Z').applied).toBe(0);
  });

  it('changes nothing of a deeply frozen input: loads, a canary, a new revision, and governance records', () => {
    const withCanary: OfferedSkill[] = [{ skillId: 'a', name: 'a', revisionId: 'a-1', canary: { revisionId: 'a-2', fraction: 0.5 } }, ...offered.slice(1)];
    let before = applyUsage(emptyUsage(SCOPE), [s('j1', 'success', [ref('a', 'a-1')], { sessionId: 'x' }), s('j2', 'fail', [])], withCanary, '2026-12-01T00:00:00.000Z').summary;
    before = applyScopeRecords(before, [{ kind: 'counts', id: 'revision:r1', at: 't', counts: { revisionsWritten: 1 } }], () => withCanary, '2026-12-01T00:00:01.000Z').summary;
    const frozen = JSON.stringify(before);
    const deepFreeze = (v: unknown): void => {
      if (v && typeof v === 'object' && !Object.isFrozen(v)) {
        Object.freeze(v);
        for (const child of Object.values(v)) deepFreeze(child);
      }
    };
    deepFreeze(before);
    const newRevision: OfferedSkill[] = [{ ...withCanary[0]!, revisionId: 'a-3' }, ...offered.slice(1)];
    const records: ScopeRecord[] = [
      { kind: 'session', usage: s('j3', 'success', [ref('a', 'a-3'), { name: 'b' }], { sessionId: 'y', score: 1, tokens: 5 }), indexEtag: 'e' },
      { kind: 'counts', id: 'revision:r2', at: 't', counts: { revisionsWritten: 1 } },
    ];
    const after = applyScopeRecords(before, records, () => newRevision, '2026-12-01T00:00:02.000Z');
    expect(after.applied).toBe(2);
    expect(after.summary.skills.find((x) => x.skillId === 'a')!.revisions[0]).toMatchObject({ revisionId: 'a-3', loaded: 1 });
    expect(after.summary.skills.find((x) => x.skillId === 'a')!.canary).toBeDefined();
    expect(JSON.stringify(before)).toBe(frozen);
  });

  it('stays bounded: job keys and revisions per skill are capped', () => {
    let summary = emptyUsage(SCOPE);
    for (let i = 0; i < 30; i++)
      summary = applyUsage(summary, [s(`r${i}`, 'success', [])], [{ skillId: 'a', name: 'a', revisionId: `a-${i}` }], '2026-12-01T00:00:00.000Z').summary;
    expect(summary.skills[0]!.revisions).toHaveLength(16);
    expect(summary.skills[0]!.revisions[0]!.revisionId).toBe('a-29');
    const many = Array.from({ length: MAX_RECENT_JOBS + 10 }, (_, i) => s(`m${i}`, 'success', []));
    expect(applyUsage(summary, many, [], '2026-12-01T00:00:00.000Z').summary.recentJobs).toHaveLength(MAX_RECENT_JOBS);
  });
});

describe('usageReport', () => {
  const day = 24 * 60 * 60_000;
  const at = (d: number) => new Date(Date.UTC(2026, 11, 1) + d * day).toISOString();
  const offered: OfferedSkill[] = [
    { skillId: 'used', name: 'used', revisionId: 'u-1' },
    { skillId: 'idle', name: 'idle', revisionId: 'i-1' },
    { skillId: 'new', name: 'new', revisionId: 'n-1' },
  ];

  it('rates per skill and revision, and flags a published skill not loaded over the window', () => {
    let summary = applyUsage(emptyUsage(SCOPE), [{ jobId: 'j1', outcome: 'success', loads: [ref('used', 'u-1')] }], offered.slice(0, 2), at(0)).summary;
    summary = applyUsage(summary, [{ jobId: 'j2', outcome: 'fail', loads: [] }], offered.slice(0, 2), at(8)).summary;
    summary = applyUsage(summary, [{ jobId: 'j3', outcome: 'success', loads: [ref('used', 'u-1')] }], offered, at(9)).summary;
    const report = usageReport(summary, offered, { now: Date.parse(at(10)), windowMs: 7 * day });
    const used = report.skills.find((x) => x.name === 'used')!;
    expect(used).toMatchObject({ offered: 3, loaded: 2, unused: false, with: { sessions: 2, successRate: 1 }, without: { sessions: 1, successRate: 0 } });
    expect(used.loadRate).toBeCloseTo(2 / 3);
    expect(used.revisions).toEqual([expect.objectContaining({ revisionId: 'u-1', live: true, offered: 3, loaded: 2 })]);
    expect(report.skills.find((x) => x.name === 'new')).toMatchObject({ offered: 1, loaded: 0, unused: false }); // offered for 1 day only
    expect(report.unused).toEqual(['idle']);
    // A skill that is no longer published is reported, never flagged.
    expect(usageReport(summary, offered.slice(0, 1), { now: Date.parse(at(10)), windowMs: 7 * day }).unused).toEqual([]);
  });
});
