import { describe, expect, it } from 'vitest';
import type { ExistingSkill, ReviewDecision, SkillSpec } from '../../core/schemas';
import { findExistingSkill, isTaskVariantSeparator, jaccard, normalizeSkillName, quantifiedFamilyKey, reconcileDecision, significantWords } from '../../core/learning';

const spec = (name: string, over: Partial<SkillSpec> = {}): SkillSpec => ({
  name,
  description: 'd',
  when_to_use: `when ${name}`,
  steps: [`step for ${name}`, 'verify'],
  pitfalls: [],
  ...over,
});
const ex = (name: string, managed = true): ExistingSkill => ({ name, description: '', bodyExcerpt: '', managed, skillId: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') });
const decision = (over: Partial<ReviewDecision>): ReviewDecision => ({ skip_reason: '', creates: [], updates: [], deletions: [], ...over });

describe('helpers', () => {
  it('normalizes names and recognises task-variant separators', () => {
    expect(normalizeSkillName('  Foo   Bar\tBaz\n')).toBe('foo bar baz');
    for (const s of [' - 3 cities', '- variant', ' (3 items)', '[scope]', ' : v', '/scale', ' |tag', '_suffix', '.v2', ' v2', 'V99']) expect(isTaskVariantSeparator(s)).toBe(true);
    for (const s of ['', ' name', 'abc', 'vfoo', ' vfoo', '  ', 'Ext']) expect(isTaskVariantSeparator(s)).toBe(false);
  });

  it('computes quantified family keys', () => {
    expect(quantifiedFamilyKey('weather monitor - 3 cities')).toBe('weather monitor - <count:city>');
    expect(quantifiedFamilyKey('weather monitor - multi-city')).toBe('weather monitor - <count:city>');
    expect(quantifiedFamilyKey('recipe cookbook - multiple dishes with apis')).toBe('recipe cookbook - <count:dish> with apis');
    expect(quantifiedFamilyKey('economic snapshot')).toBe('economic snapshot');
  });

  it('computes significant words and Jaccard similarity', () => {
    expect([...significantWords('Geopolitical-Commodity-Market-Snapshot of the day')].sort()).toEqual(['commodity', 'day', 'geopolitical', 'market', 'snapshot']);
    expect(jaccard(new Set(['a1', 'b1', 'c1']), new Set(['a1', 'b1', 'd1', 'e1']))).toBeCloseTo(0.4);
  });
});

describe('Rule 2: intra-batch dedup', () => {
  it('drops a later candidate with the same normalized name (first wins)', () => {
    const r = reconcileDecision(decision({ creates: [spec('Brand New', { description: 'first' }), spec('brand  new', { description: 'second' })] }), []);
    expect(r.decision.creates.map((c) => c.description)).toEqual(['first']);
    expect(r.events).toEqual([{ kind: 'drop_intra_batch_duplicate', list: 'creates', original: 'brand  new', reason: 'normalized name matches earlier candidate "Brand New"' }]);
  });

  it('drops a later candidate with the same when_to_use + ordered steps', () => {
    const shape = { when_to_use: 'do thing', steps: ['call api', 'save json'] };
    const r = reconcileDecision(decision({ creates: [spec('Alpha', shape), spec('Beta', { when_to_use: 'DO THING', steps: ['Call API', 'Save JSON'] })] }), []);
    expect(r.decision.creates.map((c) => c.name)).toEqual(['Alpha']);
    expect(r.events[0].reason).toBe('when_to_use+steps shape matches earlier candidate "Alpha"');
  });

  it('does not dedup skeletons with an empty shape', () => {
    const r = reconcileDecision(decision({ creates: [spec('Alpha', { when_to_use: '', steps: [] }), spec('Beta', { when_to_use: '', steps: [] })] }), []);
    expect(r.decision.creates).toHaveLength(2);
    expect(r.events).toEqual([]);
  });
});

describe('Rule 1: name superset', () => {
  it('rewrites a strict task-variant superset into an update of the parent', () => {
    const r = reconcileDecision(decision({ creates: [spec('Foo Workflow - 3 Cities')] }), [ex('Foo Workflow')]);
    expect(r.decision.creates).toEqual([]);
    expect(r.decision.updates).toHaveLength(1);
    expect(r.decision.updates[0].name).toBe('Foo Workflow');
    expect(r.decision.updates[0].new_spec.name).toBe('Foo Workflow');
    expect(r.decision.updates[0].reason).toBe('auto-merged by reconciler: candidate "Foo Workflow - 3 Cities" is a strict task-variant superset of existing skill "Foo Workflow"');
    expect(r.events).toEqual([
      {
        kind: 'rewrite_to_update',
        list: 'creates',
        original: 'Foo Workflow - 3 Cities',
        target: 'Foo Workflow',
        reason: 'candidate is a strict task-variant superset of existing skill "Foo Workflow"',
      },
    ]);
  });

  it('rewrites an exact name match, and picks the longest matching parent', () => {
    expect(reconcileDecision(decision({ creates: [spec('foo workflow')] }), [ex('Foo Workflow')]).events[0].kind).toBe('rewrite_to_update');
    const r = reconcileDecision(decision({ creates: [spec('Foo Workflow - Multi-City - 3 Cities')] }), [ex('Foo Workflow'), ex('Foo Workflow - Multi-City')]);
    expect(r.decision.updates.map((u) => u.name)).toEqual(['Foo Workflow - Multi-City']);
  });

  it('keeps a candidate that shares a prefix without a separator', () => {
    const r = reconcileDecision(decision({ creates: [spec('Foo Workflow Extended')] }), [ex('Foo Workflow')]);
    expect(r.decision.creates).toHaveLength(1);
    expect(r.events).toEqual([]);
  });

  it('drops the candidate when the reviewer already updates the parent', () => {
    const r = reconcileDecision(
      decision({ creates: [spec('Foo Workflow - 3 Cities')], updates: [{ name: 'Foo Workflow', new_spec: spec('Foo Workflow', { description: 'explicit' }), reason: '' }] }),
      [ex('Foo Workflow')],
    );
    expect(r.decision.creates).toEqual([]);
    expect(r.decision.updates.map((u) => u.new_spec.description)).toEqual(['explicit']);
    expect(r.events).toEqual([
      {
        kind: 'drop_conflicts_with_existing_update',
        list: 'creates',
        original: 'Foo Workflow - 3 Cities',
        target: 'Foo Workflow',
        reason: 'the reviewer already emitted an explicit update for this parent',
      },
    ]);
  });

  it('leaves the candidate alone when the parent is being deleted', () => {
    const r = reconcileDecision(decision({ creates: [spec('Foo Workflow - 3 Cities')], deletions: ['Foo Workflow'] }), [ex('Foo Workflow')]);
    expect(r.decision.creates).toHaveLength(1);
    expect(r.decision.deletions).toEqual(['Foo Workflow']);
    expect(r.events).toEqual([]);
  });

  it('collapses several candidates for one parent into one update', () => {
    const r = reconcileDecision(decision({ creates: [spec('Foo Workflow - 3 Cities'), spec('Foo Workflow - 4 Cities'), spec('Foo Workflow (5 cities)')] }), [ex('Foo Workflow')]);
    expect(r.decision.updates).toHaveLength(1);
    expect(r.events.map((e) => e.kind)).toEqual(['rewrite_to_update', 'drop_intra_batch_duplicate', 'drop_intra_batch_duplicate']);
    expect(r.events[1].reason).toBe('another candidate already mapped to this parent during reconciliation');
  });
});

describe('Rule 3: counted sibling', () => {
  it('rewrites a count-specific candidate into an update of the generic sibling', () => {
    const r = reconcileDecision(decision({ creates: [spec('Recipe Cookbook - 3 Dishes')] }), [ex('Recipe Cookbook - Multi-Dish')]);
    expect(r.decision.creates).toEqual([]);
    expect(r.decision.updates.map((u) => [u.name, u.new_spec.name])).toEqual([['Recipe Cookbook - Multi-Dish', 'Recipe Cookbook - Multi-Dish']]);
    expect(r.events).toEqual([
      {
        kind: 'rewrite_quantified_sibling_to_update',
        list: 'creates',
        original: 'Recipe Cookbook - 3 Dishes',
        target: 'Recipe Cookbook - Multi-Dish',
        reason: 'candidate is a count-specific sibling of existing generic skill "Recipe Cookbook - Multi-Dish"',
      },
    ]);
  });

  it('handles siblings with a shared suffix and collapses several counts', () => {
    const existing = [ex('Weather Monitor - Multi-City'), ex('Weather Monitor - Multi-City with Historical Data')];
    const creates = [
      spec('Weather Monitor - 3 Cities', { when_to_use: 'a' }),
      spec('Weather Monitor - 3 Cities with Historical Data', { when_to_use: 'b' }),
      spec('Weather Monitor - 4 Cities', { when_to_use: 'c' }),
      spec('Weather Monitor - 4 Cities with Historical Data', { when_to_use: 'd' }),
      spec('Weather Monitor - 5 Cities with Historical Data', { when_to_use: 'e' }),
    ];
    const r = reconcileDecision(decision({ creates }), existing);
    expect(r.decision.creates).toEqual([]);
    expect(r.decision.updates.map((u) => u.name).sort()).toEqual(['Weather Monitor - Multi-City', 'Weather Monitor - Multi-City with Historical Data']);
    expect(r.events.filter((e) => e.kind === 'drop_intra_batch_duplicate').map((e) => e.reason)).toEqual([
      'another quantified sibling already mapped to this generic parent during reconciliation',
      'another quantified sibling already mapped to this generic parent during reconciliation',
      'another quantified sibling already mapped to this generic parent during reconciliation',
    ]);
  });

  it('does not pick a canonical sibling among count-specific ones (Rule 4 merges them instead)', () => {
    const r = reconcileDecision(decision({ creates: [spec('Weather Monitor - 3 Cities')] }), [ex('Weather Monitor - 4 Cities'), ex('Weather Monitor - 5 Cities')]);
    expect(r.events.map((e) => e.kind)).toEqual(['rewrite_word_overlap_to_update']);
    expect(r.decision.updates.map((u) => u.name)).toEqual(['Weather Monitor - 4 Cities']);
  });
});

describe('Rule 4: word overlap', () => {
  it('rewrites a candidate with >= 50% significant-word overlap', () => {
    const r = reconcileDecision(decision({ creates: [spec('Geopolitical Market Impact Analysis')] }), [ex('Geopolitical Market Analysis')]);
    expect(r.decision.updates.map((u) => u.name)).toEqual(['Geopolitical Market Analysis']);
    expect(r.events).toEqual([
      {
        kind: 'rewrite_word_overlap_to_update',
        list: 'creates',
        original: 'Geopolitical Market Impact Analysis',
        target: 'Geopolitical Market Analysis',
        reason: 'candidate has 75% significant-word overlap with existing skill "Geopolitical Market Analysis"',
      },
    ]);
  });

  it('keeps unrelated candidates and single-word overlaps', () => {
    expect(reconcileDecision(decision({ creates: [spec('Recipe Cookbook Builder')] }), [ex('Weather Data Collection')]).decision.creates).toHaveLength(1);
    expect(reconcileDecision(decision({ creates: [spec('Market Data Fetcher')] }), [ex('Market Analysis')]).decision.creates).toHaveLength(1);
  });

  it('is exactly at the 50% threshold inclusive, and dedups a second candidate for the same target', () => {
    const r = reconcileDecision(decision({ creates: [spec('Geopolitical Market Snapshot'), spec('Geopolitical Market Assessment')] }), [ex('Geopolitical Market Analysis')]);
    expect(r.decision.creates).toEqual([]);
    expect(r.decision.updates).toHaveLength(1);
    expect(r.events.map((e) => e.kind)).toEqual(['rewrite_word_overlap_to_update', 'drop_intra_batch_duplicate']);
    expect(r.events[1].reason).toBe('another candidate already mapped to this target via word overlap');
  });

  it('skips the rewrite when the target is being deleted', () => {
    const r = reconcileDecision(decision({ creates: [spec('Geopolitical Market Impact Analysis')], deletions: ['Geopolitical Market Analysis'] }), [
      ex('Geopolitical Market Analysis'),
    ]);
    expect(r.decision.creates).toHaveLength(1);
  });
});

describe('normalization and write isolation', () => {
  it('drops updates and deletions of skills that do not exist', () => {
    const r = reconcileDecision(decision({ updates: [{ name: 'Ghost', new_spec: spec('Ghost'), reason: '' }], deletions: ['Phantom'] }), [ex('Real')]);
    expect(r.decision.updates).toEqual([]);
    expect(r.decision.deletions).toEqual([]);
    expect(r.events).toEqual([
      { kind: 'drop_unknown_target', list: 'updates', original: 'Ghost', reason: 'cannot update "Ghost": no existing skill has that name' },
      { kind: 'drop_unknown_target', list: 'deletions', original: 'Phantom', reason: 'cannot delete "Phantom": no existing skill has that name' },
    ]);
  });

  it('drops writes to unmanaged skills, which stay visible for dedup', () => {
    const existing = [ex('Handbook', false), ex('Weather Workflow', false)];
    const r = reconcileDecision(
      decision({
        updates: [{ name: 'handbook', new_spec: spec('handbook'), reason: '' }],
        deletions: ['Handbook '],
        creates: [spec('Weather Workflow - 3 Cities'), spec('weather-workflow')],
      }),
      existing,
    );
    expect(r.decision).toEqual({ skip_reason: '', creates: [], updates: [], deletions: [] });
    expect(r.events.map((e) => [e.kind, e.list, e.original])).toEqual([
      ['drop_cross_list_conflict', 'updates', 'handbook'],
      ['drop_unmanaged_target', 'deletions', 'Handbook'],
      // The unmanaged skill is still matched by Rule 1 ...
      ['rewrite_to_update', 'creates', 'Weather Workflow - 3 Cities'],
      ['drop_conflicts_with_existing_update', 'creates', 'weather-workflow'],
      // ... but the resulting write is refused.
      ['drop_unmanaged_target', 'updates', 'Weather Workflow'],
    ]);
    expect(r.events[1].reason).toBe('cannot delete "Handbook": it is outside the managed area');
    expect(r.events[4].reason).toBe('cannot update "Weather Workflow": it is outside the managed area');
  });

  it('drops a create whose skill id would replace an unmanaged skill', () => {
    const r = reconcileDecision(decision({ creates: [spec('weather: workflow!')] }), [ex('Weather Workflow', false)]);
    expect(r.decision.creates).toEqual([]);
    expect(r.events).toEqual([
      {
        kind: 'drop_unmanaged_target',
        list: 'creates',
        original: 'weather: workflow!',
        target: 'Weather Workflow',
        reason: 'cannot create "weather: workflow!": it would replace "Weather Workflow", which is outside the managed area',
      },
    ]);
  });

  it('resolves an update to the existing exact name and forces new_spec.name to it', () => {
    const r = reconcileDecision(decision({ updates: [{ name: '  weather   workflow ', new_spec: spec('Something Else'), reason: ' better ' }] }), [ex('Weather Workflow')]);
    expect(r.decision.updates).toEqual([
      {
        name: 'Weather Workflow',
        reason: 'better',
        new_spec: { ...spec('Weather Workflow'), name: 'Weather Workflow', when_to_use: 'when Something Else', steps: ['step for Something Else', 'verify'] },
      },
    ]);
  });

  it('gives one list per skill: deletions beat updates beat creates', () => {
    const r = reconcileDecision(decision({ deletions: ['Old'], updates: [{ name: 'old', new_spec: spec('old'), reason: '' }], creates: [spec('OLD')] }), [ex('Old')]);
    expect(r.decision.deletions).toEqual(['Old']);
    expect(r.decision.updates).toEqual([]);
    expect(r.decision.creates).toEqual([]);
    expect(r.events.map((e) => [e.kind, e.list])).toEqual([
      ['drop_cross_list_conflict', 'updates'],
      ['drop_cross_list_conflict', 'creates'],
    ]);
  });

  it('finds existing skills preferring the exact spelling, then managed', () => {
    const list = [ex('Foo', false), ex('foo', true)];
    expect(findExistingSkill('foo', list)?.managed).toBe(true);
    expect(findExistingSkill('FOO', list)?.managed).toBe(true);
    expect(findExistingSkill('Foo', list)?.managed).toBe(false);
  });

  it('reproduces the SkillCraft proliferation pattern: four candidates, two updates', () => {
    const existing = [ex('Weather Monitor - Multi-City'), ex('Economic Snapshot - 3 Countries with APIs')];
    const creates = [
      spec('Weather Monitor - Multi-City - 3 Cities and 3 APIs', { when_to_use: 'wA' }),
      spec('Weather Monitor - Multi-City - 4 Cities with 4 APIs', { when_to_use: 'wB' }),
      spec('Economic Snapshot - 3 Countries with APIs - E1', { when_to_use: 'wC' }),
      spec('Economic Snapshot - 3 Countries with APIs - E3', { when_to_use: 'wD' }),
    ];
    const r = reconcileDecision(decision({ creates }), existing);
    expect(r.decision.creates).toEqual([]);
    expect(r.decision.updates.map((u) => u.name).sort()).toEqual(['Economic Snapshot - 3 Countries with APIs', 'Weather Monitor - Multi-City']);
  });
});
