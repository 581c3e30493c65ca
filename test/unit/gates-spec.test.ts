import { describe, expect, it } from 'vitest';
import type { ExistingSkill, SkillSpec } from '../../core/schemas';
import { specGate, type GateCandidate } from '../../core/learning';

const good: SkillSpec = { name: 'Weather - Multi-City', description: 'd', when_to_use: 'w', steps: ['a', 'b'], pitfalls: [] };
const create = (spec: SkillSpec | undefined): GateCandidate => ({ action: 'create', source: 'reviewer', spec, targetName: spec?.name ?? '' });
const ex = (name: string): ExistingSkill => ({ name, description: '', bodyExcerpt: '', managed: true, skillId: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') });

describe('spec gate', () => {
  it('passes a complete skill', () => {
    expect(specGate(create(good), [])).toEqual({ gate: 'spec', ran: true, passed: true, held: false, reasons: [] });
  });

  it('reports every structural problem together', () => {
    const r = specGate(create({ name: ' ', description: '', when_to_use: '  ', steps: ['only', '   '], pitfalls: [] }), []);
    expect(r.passed).toBe(false);
    expect(r.reasons).toEqual(['empty skill name', 'missing description', 'missing when_to_use', 'needs at least 2 steps, got 1']);
  });

  it('enforces name length, single-line names, step count and size limits', () => {
    expect(specGate(create({ ...good, name: 'n'.repeat(121) }), []).reasons).toEqual(['name longer than 120 characters']);
    expect(specGate(create({ ...good, name: 'n'.repeat(120) }), []).passed).toBe(true);
    expect(specGate(create({ ...good, name: 'two\nlines' }), []).reasons).toEqual(['name must be a single line']);
    expect(specGate(create({ ...good, steps: Array.from({ length: 51 }, (_, i) => `s${i}`) }), []).reasons).toEqual(['has 51 steps, more than the limit of 50']);
    const huge = specGate(create({ ...good, steps: Array.from({ length: 20 }, () => 'x'.repeat(3000)) }), []);
    expect(huge.reasons).toHaveLength(1);
    expect(huge.reasons[0]).toMatch(/^SKILL.md is \d+ bytes, more than the limit of 32768$/);
    expect(specGate(create({ ...good, steps: ['one'] }), [], { minSteps: 1 }).passed).toBe(true);
  });

  it('rejects a create that duplicates an existing skill, but not an update of it', () => {
    const r = specGate(create({ ...good, name: 'weather: multi city' }), [ex('Weather - Multi-City')]);
    expect(r.reasons).toEqual(['duplicate of existing skill "Weather - Multi-City"; should be an update, not a create']);
    expect(specGate({ ...create(good), action: 'update' }, [ex('Weather - Multi-City')]).passed).toBe(true);
  });

  it('rejects a count-specific create when a generic sibling exists', () => {
    const r = specGate(create({ ...good, name: 'Weather - 3 Cities' }), [ex('Weather - Multi-City')]);
    expect(r.reasons).toEqual(['count-specific sibling of generic parent "Weather - Multi-City"; should be an update']);
  });

  it('rejects a count-specific create beside a broader generic parent, naming it (reference generic-parent rule)', () => {
    const parent = 'Weather Monitor - Multi-City with Historical Data';
    const r = specGate(create({ ...good, name: 'Weather Monitor - 3 Cities' }), [ex('Unrelated Skill'), ex(parent)]);
    expect(r.passed).toBe(false);
    expect(r.reasons).toEqual([`count-specific sibling of generic parent "${parent}"; should be an update`]);
    // A different family, a generic parent without a multiplicity marker, or an update are not caught.
    expect(specGate(create({ ...good, name: 'Weather Report - 3 Cities' }), [ex(parent)]).passed).toBe(true);
    expect(specGate(create({ ...good, name: 'Weather Monitor - 3 Cities' }), [ex('Weather Monitor - Historical Data')]).passed).toBe(true);
    expect(specGate({ ...create({ ...good, name: 'Weather Monitor - 3 Cities' }), action: 'update' }, [ex(parent)]).passed).toBe(true);
  });

  it('checks the normalised name: invisible characters make no name, look-alikes are duplicates (issue 31)', () => {
    expect(specGate(create({ ...good, name: '\u200b\u200d\u2060' }), []).reasons).toEqual(['empty skill name']);
    expect(specGate(create({ ...good, name: 'Weather\u200b Report' }), [ex('Weather Report')]).reasons).toEqual([
      'duplicate of existing skill "Weather Report"; should be an update, not a create',
    ]);
    expect(specGate(create({ ...good, name: 'Wеаther Report' }), [ex('Weather Report')]).passed).toBe(false); // Cyrillic е, а
  });

  it('fails immediately without a spec body and skips deletes', () => {
    expect(specGate(create(undefined), []).reasons).toEqual(['missing spec body']);
    expect(specGate({ action: 'delete', source: 'reviewer', targetName: 'X' }, [])).toEqual({
      gate: 'spec',
      ran: false,
      passed: true,
      held: false,
      reasons: ['skipped: delete revisions carry no new body'],
    });
  });
});
